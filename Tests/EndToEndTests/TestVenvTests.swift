import Foundation
import Testing
import TestSupport

/// The test virtualenv is made by the tests themselves (`TestVenv`, `Tests/Scripts/make_venv.sh`):
/// once, under an flock, even when two processes ask at the same moment; again when the
/// requirements change; and a venv that cannot be made is an error that says why.
@Suite struct TestVenvTests {
    /// Runs `make_venv.sh` twice at once, as two processes, with the venv location and the
    /// requirements in `folder` given by environment variable; each run's status, stdout, stderr.
    func makeTwiceAtOnce(_ folder: TempFolder) throws -> [(status: String, stdout: String, stderr: String)] {
        let both = """
            bash "$0" >"$1/a.out" 2>"$1/a.err" & a=$!
            bash "$0" >"$1/b.out" 2>"$1/b.err" & b=$!
            wait $a; echo $? >"$1/a.status"
            wait $b; echo $? >"$1/b.status"
            """
        let result = try runProgram(
            ["bash", "-c", both, TestVenv.script, folder.path],
            environment: ["PUSHDECK_TEST_VENV": folder.file("venv"), "PUSHDECK_TEST_REQUIREMENTS": folder.file("requirements.txt")],
            timeout: 1800)  // pip from the package index: as long as making the test venv may take
        #expect(result.status == 0, "\(result.stderr)")
        return try ["a", "b"].map { name in
            let read = { (suffix: String) in try String(contentsOfFile: folder.file("\(name).\(suffix)"), encoding: .utf8) }
            return (try read("status").trimmingCharacters(in: .whitespacesAndNewlines), try read("out"), try read("err"))
        }
    }

    @Test func twoProcessesAtOnceMakeTheVenvOnceAndAChangedRequirementsFileMakesItAgain() throws {
        let folder = TempFolder()
        try "idna==3.20\n".write(toFile: folder.file("requirements.txt"), atomically: true, encoding: .utf8)

        let runs = try makeTwiceAtOnce(folder)
        let python = folder.file("venv/bin/python")
        for run in runs {
            #expect(run.status == "0", "\(run.stderr)")
            #expect(run.stdout == python + "\n")
        }
        #expect(runs.filter { $0.stderr.contains("making") }.count == 1, "\(runs.map(\.stderr))")
        let version = try runProgram([python, "-c", "import idna; print(idna.__version__)"])
        #expect(version.output == "3.20", "\(version.stderr)")

        // Made, and the requirements unchanged: neither run makes it again.
        let again = try makeTwiceAtOnce(folder)
        #expect(again.allSatisfy { $0.status == "0" && !$0.stderr.contains("making") }, "\(again.map(\.stderr))")

        // Other requirements: made again once, from nothing (what the new file pins, nothing more).
        try "charset-normalizer==3.5.3\n".write(toFile: folder.file("requirements.txt"), atomically: true, encoding: .utf8)
        let changed = try makeTwiceAtOnce(folder)
        #expect(changed.allSatisfy { $0.status == "0" }, "\(changed.map(\.stderr))")
        #expect(changed.filter { $0.stderr.contains("making") }.count == 1, "\(changed.map(\.stderr))")
        let gone = try runProgram([python, "-c", "import idna"])
        #expect(gone.status != 0, "idna is still installed after the requirements dropped it")
        let stamp = try String(contentsOfFile: folder.file("venv/.requirements.sha256"), encoding: .utf8)
        let digest = try runProgram(["sha256sum", folder.file("requirements.txt")])
        #expect(digest.stdout.hasPrefix(stamp.trimmingCharacters(in: .whitespacesAndNewlines) + " "))
    }

    @Test func aVenvThatCannotBeMadeIsAnErrorNamingTheCommandAndItsOutput() throws {
        let folder = TempFolder()
        try "this is not a requirement ===\n".write(toFile: folder.file("requirements.txt"), atomically: true, encoding: .utf8)
        let error = try #require(throws: SpawnError.self) {
            try TestVenv.ensure(folder: folder.file("venv"), requirements: folder.file("requirements.txt"))
        }
        #expect(error.message.contains("make_venv.sh"), "\(error.message)")
        #expect(error.message.contains("pip install"), "\(error.message)")
        #expect(error.message.contains("Invalid requirement"), "\(error.message)")
        // Nothing half-made passes for made: no stamp, so the next call tries again.
        #expect(!FileManager.default.fileExists(atPath: folder.file("venv/.requirements.sha256")))
    }
}
