/// `pushdeck demo`: plays the sample scenario through a running pushdeck.
enum DemoCommand {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        throw Failure(code: 2, message: "the demo is not built yet")
    }
}
