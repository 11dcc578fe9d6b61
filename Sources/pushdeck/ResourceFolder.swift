import Foundation

/// Finds the package's `Resources/` folder (sample payloads, the demo scenario): `$PUSHDECK_RESOURCES`,
/// else an installed copy beside the running binary (`install.sh` puts `PREFIX/bin/pushdeck` and
/// `PREFIX/share/pushdeck/`), else the checkout the running binary was built in
/// (`.build/<triple>/<config>/pushdeck` sits three levels below the package root), else `./Resources`.
enum ResourceFolder {
    static func locate() -> URL? {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["PUSHDECK_RESOURCES"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        if let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            candidates.append(folder.deletingLastPathComponent().appendingPathComponent("share/pushdeck"))
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("Resources"))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Resources"))
        return candidates.first { fileManager.fileExists(atPath: $0.appendingPathComponent("scenarios/demo.json").path) }
    }
}
