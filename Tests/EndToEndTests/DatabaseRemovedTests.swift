import Foundation
import PushCore
import Testing
import TestSupport

/// The database file removed or replaced under a running server: changes are
/// refused with an error naming the file, never acknowledged into a file nobody can read again.
@Suite struct DatabaseRemovedTests {
    @Test(arguments: ["removed", "replaced"])
    func changesAreRefusedOnceTheFileIsGone(_ how: String) throws {
        let server = try ServerProcess()
        let client = try RawClient(path: server.socket)
        #expect(try client.request(#"{"aps":{"alert":"before"},"Simulator Target Bundle":"com.example.a"}"#)["ok"] == true)
        try FileManager.default.removeItem(atPath: server.database)
        if how == "replaced" {
            try Data("someone else's file".utf8).write(to: URL(fileURLWithPath: server.database))
        }
        for request in [
            #"{"aps":{"alert":"after"},"Simulator Target Bundle":"com.example.a"}"#,
            #"{"op":"badge","app":"com.example.a","set":7}"#,
            #"{"op":"read","id":1}"#,
        ] {
            let reply = try client.request(request)
            #expect(reply["ok"] == false, "\(request): \(reply)")
            let error = reply["error"]?.stringValue ?? ""
            #expect(error.contains(server.database), "\(error)")
            #expect(error.contains(how == "removed" ? "deleted or moved" : "replaced"), "\(error)")
        }
        // Reading goes on, and nothing refused shows up as if it had been saved.
        let listed = try client.request(#"{"op":"list"}"#)
        #expect(listed["messages"]?.arrayValue?.count == 1, "\(listed)")
        #expect(try client.request(#"{"op":"ping"}"#)["ok"] == true)
        if how == "replaced" {
            #expect(try String(contentsOfFile: server.database, encoding: .utf8) == "someone else's file")
        }
    }
}
