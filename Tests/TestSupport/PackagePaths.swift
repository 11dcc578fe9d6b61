import Foundation

/// Where things are in the package, found from this source file (not from a bundle).
public enum PackagePaths {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let resources = root.appendingPathComponent("Resources")
    public static let corpus = root.appendingPathComponent("Tests/Fixtures/corpus")

    /// The built `pushdeck` binary beside the test bundle (SwiftPM builds it for `swift test`).
    public static var pushdeckBinary: String {
        let beside = Bundle.main.bundleURL.appendingPathComponent("pushdeck").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return root.appendingPathComponent(".build/debug/pushdeck").path
    }
}
