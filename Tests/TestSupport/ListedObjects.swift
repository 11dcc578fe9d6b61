import PushJSON

/// The messages a running server holds, as `list --json` prints them: one object each, newest first.
public func messages(_ server: ServerProcess) throws -> [JSONObject] {
    try JSON.parse(try server.run(["list", "--json"]).output).arrayValue?.compactMap(\.objectValue) ?? []
}

/// The messages a gateway's server holds (see `messages(_:)` of a `ServerProcess`).
public func messages(_ gateway: GatewayServer) throws -> [JSONObject] { try messages(gateway.server) }

/// The devices a gateway's server knows, as `device list --json` prints them.
public func devices(_ gateway: GatewayServer) throws -> [JSONObject] {
    try JSON.parse(try gateway.server.run(["device", "list", "--json"]).output).arrayValue?.compactMap(\.objectValue) ?? []
}
