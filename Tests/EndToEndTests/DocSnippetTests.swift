import Foundation
import Testing
import TestSupport

/// The README and the pages in `docs/` are what a newcomer pastes. Every `sh` block on them runs
/// here, exactly as written, in a copy of the repository with a private home, against a running
/// `pushdeck serve --gateway`: README first (its install block puts `pushdeck` on the home's
/// PATH), then each page in the README's order. A block that cannot run here says why in its
/// fence (```` ```sh no-run: the reason ````).
@Suite("Docs: every snippet runs as pasted", .serialized)
struct DocSnippetTests {
    /// The pages, in the order a reader meets them (the README's table of pages).
    static let pages = [
        "README.md", "docs/usage.md", "docs/behaviour.md", "docs/gateway.md", "docs/apns.md", "docs/jpush.md",
        "docs/getui.md", "docs/fcm.md", "docs/scenarios.md", "docs/control-api.md", "docs/reliability.md", "docs/performance.md",
        "docs/performance-log.md", "docs/architecture.md", "docs/live-activities.md", "docs/faults.md", "docs/team-bus.md",
    ]

    @Test("README is a front page: at most 200 lines, and every page it links to exists")
    func readmeIsAFrontPage() throws {
        let readme = try page("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 200, "README.md has \(lines) lines")
        for name in Self.pages {
            #expect(FileManager.default.fileExists(atPath: PackagePaths.root.appendingPathComponent(name).path), "\(name) is missing")
        }
        for name in Self.pages {
            for target in Self.relativeLinks(in: try page(name)) {
                let folder = PackagePaths.root.appendingPathComponent(name).deletingLastPathComponent()
                let file = String(target.split(separator: "#").first ?? "")
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(name) links to \(target), which does not exist")
            }
        }
    }

    @Test("the usage page's command overview is what `pushdeck help` prints")
    func usageMatchesTheCommandTable() throws {
        let usage = try page("docs/usage.md")
        let begin = "<!-- pushdeck help: begin -->\n```\n"
        let end = "```\n<!-- pushdeck help: end -->"
        let start = try #require(usage.range(of: begin), "docs/usage.md has no \(begin) marker")
        let stop = try #require(usage.range(of: end, range: start.upperBound..<usage.endIndex))
        let documented = String(usage[start.upperBound..<stop.lowerBound])
        let help = try runPushdeck(["help"])
        #expect(help.status == 0)
        if documented != help.stdout, ProcessInfo.processInfo.environment["PUSHDECK_RECORD_SNAPSHOTS"] == "1" {
            // Re-recorded on purpose only, as the grid snapshots are.
            let updated = usage.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: help.stdout)
            try updated.write(to: PackagePaths.root.appendingPathComponent("docs/usage.md"), atomically: true, encoding: .utf8)
            return
        }
        #expect(documented == help.stdout, """
            docs/usage.md's overview drifted from `pushdeck help`: \
            PUSHDECK_RECORD_SNAPSHOTS=1 swift test --filter DocSnippetTests writes it anew
            """)
    }

    @Test("every sh block of README and docs runs as pasted")
    func everySnippetRuns() throws {
        let folder = TempFolder()
        let broker = try MosquittoBroker()
        let repo = folder.file("repo")
        let home = folder.file("home")
        let temporary = folder.file("tmp")
        try Self.copyCheckout(to: repo)
        for made in [home, temporary] {
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        }
        let environment: [String: String] = [
            "HOME": home, "XDG_DATA_HOME": home + "/.local/share", "XDG_CONFIG_HOME": home + "/.config",
            // What a snippet makes with mktemp goes away with the test's folder.
            "TMPDIR": temporary,
            "XDG_RUNTIME_DIR": "", "PUSHDECK_SOCKET": folder.file("s.sock"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "PATH": home + "/.local/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            // The install block builds nothing here: it installs the binary this test run built.
            "PUSHDECK_INSTALL_BINARY": PackagePaths.pushdeckBinary,
            // The team bus page's instances join a broker of this test's own.
            "MQTT_BROKER": broker.url,
        ]
        let server = try ServerProcess(folder: folder, extraArguments: ["--gateway", "127.0.0.1:0"], environment: environment)
        var ran = 0
        for name in Self.pages {
            for block in Self.blocks(in: try page(name)) {
                if let reason = block.skipReason {
                    #expect(!reason.isEmpty, "\(name):\(block.line): a no-run block must say why")
                    continue
                }
                let result = try Self.run(block.code, in: repo, environment: environment)
                ran += 1
                #expect(result.status == 0, """
                    \(name):\(block.line) exited \(result.status)
                    \(block.code)
                    stdout: \(result.stdout.suffix(2000))
                    stderr: \(result.stderr.suffix(2000))
                    server: \(server.serverLog.suffix(1000))
                    """)
            }
        }
        #expect(ran >= 15, "only \(ran) snippets ran")
    }

    // MARK: - Reading the pages

    struct Block {
        var line: Int
        var code: String
        /// Why the block is not run, or nil to run it.
        var skipReason: String?
    }

    func page(_ name: String) throws -> String {
        try String(contentsOf: PackagePaths.root.appendingPathComponent(name), encoding: .utf8)
    }

    /// The `sh` blocks of a Markdown page: a fence ```` ```sh ```` runs, ```` ```sh no-run: why ````
    /// is shown only; other languages are not shell.
    static func blocks(in text: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var inOtherFence = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var block = current {
                if line.hasPrefix("```") {
                    blocks.append(block)
                    current = nil
                } else {
                    block.code += line + "\n"
                    current = block
                }
            } else if line.hasPrefix("```") {
                if inOtherFence {
                    inOtherFence = false
                    continue
                }
                let info = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                if info == "sh" {
                    current = Block(line: index + 1, code: "")
                } else if info.hasPrefix("sh no-run") {
                    let reason = info.dropFirst("sh no-run".count).drop { $0 == ":" || $0 == " " }
                    current = Block(line: index + 1, code: "", skipReason: String(reason))
                } else {
                    inOtherFence = true
                }
            }
        }
        return blocks
    }

    /// The relative link targets of a page (`[text](target)` not starting with a scheme or `#`).
    static func relativeLinks(in text: String) -> [String] {
        var links: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close])
            if !target.contains("://"), !target.hasPrefix("#"), !target.hasPrefix("mailto:"), !target.contains(" ") {
                links.append(target)
            }
            rest = rest[close...]
        }
        return links
    }

    // MARK: - Running a block

    /// A copy of the repository's own files (no `.build`, no `.git`): what a fresh clone holds.
    static func copyCheckout(to path: String) throws {
        let listed = try runProgram(["git", "-C", PackagePaths.root.path, "ls-files", "--cached", "--others", "--exclude-standard", "-z"])
        try #require(listed.status == 0, "git ls-files failed: \(listed.stderr)")
        let manager = FileManager.default
        for file in listed.stdout.split(separator: "\0") {
            let source = PackagePaths.root.appendingPathComponent(String(file)).path
            guard manager.fileExists(atPath: source) else { continue }  // deleted in the working tree
            let target = path + "/" + file
            try manager.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try manager.copyItem(atPath: source, toPath: target)
        }
    }

    /// Runs one block with bash (`-e`, `pipefail`) from the copy's root; a job a snippet leaves
    /// in the background (a server of its own) is ended with the block.
    static func run(_ code: String, in folder: String, environment: [String: String]) throws -> CommandResult {
        let script = "cd '\(folder)' || exit 1\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\nset -eo pipefail\n" + code
        return try runProgram(["timeout", "120", "bash", "--noprofile", "--norc", "-c", script], environment: environment)
    }
}
