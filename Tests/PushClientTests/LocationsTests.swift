import PushClient
import Testing

@Suite struct LocationsTests {
    @Test func socketPathPrecedence() {
        #expect(Locations.socketPath(flag: "/f.sock", environment: ["PUSHDECK_SOCKET": "/e.sock"], uid: 5) == "/f.sock")
        #expect(Locations.socketPath(flag: nil, environment: ["PUSHDECK_SOCKET": "/e.sock", "XDG_RUNTIME_DIR": "/run/user/5"], uid: 5) == "/e.sock")
        #expect(Locations.socketPath(flag: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/5"], uid: 5) == "/run/user/5/pushdeck/pushdeck.sock")
        #expect(Locations.socketPath(flag: nil, environment: [:], uid: 1000) == "/tmp/pushdeck-1000/pushdeck.sock")
        #expect(Locations.socketPath(flag: nil, environment: ["PUSHDECK_SOCKET": "", "XDG_RUNTIME_DIR": ""], uid: 7) == "/tmp/pushdeck-7/pushdeck.sock")
    }

    @Test func databasePathPrecedence() {
        #expect(Locations.databasePath(flag: "/x.db", environment: ["PUSHDECK_DB": "/y.db"]) == "/x.db")
        #expect(Locations.databasePath(flag: nil, environment: ["PUSHDECK_DB": "/y.db", "XDG_DATA_HOME": "/d"]) == "/y.db")
        #expect(Locations.databasePath(flag: nil, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/pushdeck/inbox.sqlite")
        #expect(Locations.databasePath(flag: nil, environment: ["HOME": "/home/qa"]) == "/home/qa/.local/share/pushdeck/inbox.sqlite")
    }

    /// The XDG Base Directory spec: a relative path in these variables is invalid and ignored.
    @Test func relativeXDGFoldersAreIgnored() {
        #expect(Locations.socketPath(flag: nil, environment: ["XDG_RUNTIME_DIR": "run/user/5"], uid: 5) == "/tmp/pushdeck-5/pushdeck.sock")
        #expect(Locations.defaultSocketFolder(environment: ["XDG_RUNTIME_DIR": "./run"], uid: 5) == "/tmp/pushdeck-5")
        #expect(Locations.databasePath(flag: nil, environment: ["XDG_DATA_HOME": "data", "HOME": "/h"]) == "/h/.local/share/pushdeck/inbox.sqlite")
    }
}
