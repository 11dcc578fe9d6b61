import Foundation

/// The JUnit XML schema `play --junit` reports are checked against (`Tests/Fixtures/junit/junit.xsd`).
public enum JUnitSchema {
    public static let path = PackagePaths.root.appendingPathComponent("Tests/Fixtures/junit/junit.xsd").path

    /// `xmllint --noout --schema` on the report at `report`: status 0 when it is valid.
    public static func check(_ report: String) throws -> Spawn.Result {
        try Spawn.run(["/usr/bin/xmllint", "--noout", "--schema", path, report], captureOutput: true)
    }
}
