import Foundation

/// `pushdeck ui --gateway` on a real terminal (tmux) with a private socket and database, once its
/// gateway answers: the session, the socket, the gateway's `HOST:PORT` and its CA file.
public struct GatewayScreen {
    public let tmux: TmuxSession
    public let socket: String
    public let address: String
    public let caPath: String
    public var port: String { address.split(separator: ":").last.map(String.init) ?? "" }

    public init(folder: TempFolder, width: Int = 100, height: Int = 30) throws {
        socket = folder.file("s.sock")
        let command = "\(PackagePaths.pushdeckBinary) ui --socket \(socket) --db \(folder.file("inbox.sqlite")) --gateway 127.0.0.1:0"
        tmux = try TmuxSession(command: command, width: width, height: height, folder: folder,
                               environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "XDG_DATA_HOME": folder.file("data")])
        var address = ""
        for _ in 0..<250 where address.isEmpty {
            let reply = try runPushdeck(["gateway", "--socket", socket])
            if reply.status == 0 { address = reply.output } else { usleep(20_000) }
        }
        self.address = address
        caPath = try runPushdeck(["gateway", "ca", "--socket", socket]).output
    }
}
