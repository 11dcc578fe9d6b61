import Foundation
import PushCore
import Testing
import TestSupport

/// `./install.sh` end to end: into a temporary prefix, the installed binary run from outside the
/// checkout (its man page, completions and the demo's scenario found where it was installed),
/// then `--uninstall`, which leaves nothing of its own and nothing else touched.
///
/// The script installs the binary this test run built (`--binary`; `$PUSHDECK_RELEASE_BINARY`
/// instead when set): `swift test` holds `.build`, so the script's own release build is
/// exercised by `.ci/run` after its release build, where it finds everything built.
@Suite struct InstallTests {
    static let installed = [
        "bin/pushdeck", "share/man/man1/pushdeck.1", "share/bash-completion/completions/pushdeck",
        "share/zsh/site-functions/_pushdeck", "share/fish/vendor_completions.d/pushdeck.fish",
        "share/pushdeck/scenarios/demo.json", "share/pushdeck/installed-files",
    ]

    /// Every file under `folder`, relative to it, sorted.
    func files(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue { found.append(path) }
        }
        return found.sorted()
    }

    @Test(.timeLimit(.minutes(30))) func installPutsTheBinaryManPageCompletionsAndScenariosUnderThePrefixAndUninstallRemovesThem() throws {
        let folder = TempFolder()
        let prefix = folder.file("prefix")
        // Something of the user's already there: neither the install nor the removal touches it.
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: prefix + "/bin/theirs", atomically: true, encoding: .utf8)

        let script = PackagePaths.root.appendingPathComponent("install.sh").path
        var arguments = [script, "--prefix", prefix]
        let release = ProcessInfo.processInfo.environment["PUSHDECK_RELEASE_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
        arguments += ["--binary", release ?? PackagePaths.pushdeckBinary]
        let install = try runProgram(arguments)
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        #expect(install.stdout.contains("installed pushdeck \(Version.current) under \(prefix)"), "\(install.stdout)")

        let present = files(under: prefix)
        for file in Self.installed { #expect(present.contains(file), "\(file) is not installed: \(present)") }
        let resources = try PackagePaths.files(in: PackagePaths.resources.appendingPathComponent("scenarios"), endingWith: [".json"])
        for scenario in resources {
            #expect(present.contains("share/pushdeck/scenarios/" + scenario.lastPathComponent))
        }
        let binary = prefix + "/bin/pushdeck"
        #expect(FileManager.default.isExecutableFile(atPath: binary))

        // The installed binary, from a folder outside the checkout and with no PUSHDECK_RESOURCES.
        func installed(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
            try runProgram(["sh", "-c", #"cd "$0" && exec "$@""#, folder.path, binary] + arguments,
                           environment: ["PUSHDECK_RESOURCES": "", "XDG_CONFIG_HOME": isolatedConfigHome].merging(environment) { $1 })
        }
        let version = try installed(["--version"])
        #expect(version.status == 0)
        #expect(version.output == "pushdeck \(Version.current)")
        let help = try installed(["help"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("completions"))

        // What the install wrote is what that binary prints.
        let man = try String(contentsOfFile: prefix + "/share/man/man1/pushdeck.1", encoding: .utf8)
        #expect(man == (try installed(["help", "--man"])).stdout)
        for (shell, path) in [("bash", "share/bash-completion/completions/pushdeck"), ("zsh", "share/zsh/site-functions/_pushdeck"),
                              ("fish", "share/fish/vendor_completions.d/pushdeck.fish")] {
            let written = try String(contentsOfFile: prefix + "/" + path, encoding: .utf8)
            #expect(written == (try installed(["completions", shell])).stdout, "\(shell)")
        }
        // fish finds the completions where they were put (its user vendor_completions.d, under
        // XDG_DATA_HOME: the prefix's share/ for the default ~/.local).
        let fish = try runProgram(["fish", "-c", "complete -C 'pushdeck gatew'"], environment: [
            "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": prefix + "/share",
            "PATH": prefix + "/bin:/usr/bin:/bin",
        ])
        #expect(fish.stdout.hasPrefix("gateway"), "\(fish.stdout)\(fish.stderr)")
        // man finds the page under the prefix.
        let page = try runProgram(["man", "--manpath=\(prefix)/share/man", "-P", "cat", "pushdeck"])
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("pushdeck"))

        // The demo's scenario is found beside the installed binary.
        let server = try ServerProcess()
        let demo = try installed(["demo", "--socket", server.socket, "--speed", "200"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("That's the show"))

        let uninstall = try runProgram([script, "--uninstall", "--prefix", prefix])
        #expect(uninstall.status == 0, "\(uninstall.stdout)\(uninstall.stderr)")
        #expect(files(under: prefix) == ["bin/theirs"])
        let left = (try? FileManager.default.contentsOfDirectory(atPath: prefix)) ?? []
        #expect(left == ["bin"], "folders the install made are left: \(left)")

        // Nothing installed: --uninstall says so and fails.
        let again = try runProgram([script, "--uninstall", "--prefix", prefix])
        #expect(again.status == 1)
        #expect(again.stderr.contains("no pushdeck installed under \(prefix)"))
    }
}
