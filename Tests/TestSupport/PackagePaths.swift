import Foundation

/// Where the package's files are, found from this source file's path (not from bundle
/// resources, which SwiftPM copies differently per platform).
public enum PackagePaths {
    /// The package root: this file is `Tests/TestSupport/PackagePaths.swift`.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Resources/`: the sample payloads.
    public static var resources: URL { root.appendingPathComponent("Resources") }
    /// `Tests/Fixtures/corpus/`: real payloads written by other people.
    public static var corpus: URL { root.appendingPathComponent("Tests/Fixtures/corpus") }

    /// The regular files of `folder` whose names end with one of `suffixes`, sorted by name.
    /// A missing folder is an error, not an empty list: a test must not pass on nothing.
    public static func files(in folder: URL, endingWith suffixes: [String]) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { url in suffixes.contains { url.lastPathComponent.hasSuffix($0) } }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The bytes of a file.
    public static func bytes(of url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    /// The built `pushdeck` binary beside the test bundle (SwiftPM builds it for `swift test`).
    public static var pushdeckBinary: String {
        let beside = Bundle.main.bundleURL.appendingPathComponent("pushdeck").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return root.appendingPathComponent(".build/debug/pushdeck").path
    }
}
