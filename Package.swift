// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "pushdeck",
    products: [
        .executable(name: "pushdeck", targets: ["pushdeck"]),
        .executable(name: "pushdeck-bench", targets: ["pushdeck-bench"]),
    ],
    targets: [
        // MARK: - C libraries from Debian
        // ncursesw's pkg-config cflags carry -D flags SwiftPM refuses (a warning); the headers are in
        // /usr/include/ncursesw and the module map links the library, so pkg-config is not needed.
        .systemLibrary(name: "CNCurses", path: "Sources/CNCurses", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNGHTTP2", path: "Sources/CNGHTTP2", providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(name: "CHTTPParser", path: "Sources/CHTTPParser", providers: [.apt(["libhttp-parser-dev"])]),
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // xxHash: the digest that tells one push body from another (not a secret: no crypto).
        .systemLibrary(name: "CXXHash", path: "Sources/CXXHash", providers: [.apt(["libxxhash-dev"])]),
        // glibc calls Swift cannot import as they are (struct ucred, flock, a signal's disposition).
        .target(name: "CSystem", path: "Sources/CSystem"),
        // The bench's C floor of a durable round trip (a socket pair and SQLite's C API alone).
        .target(name: "CBenchFloor", dependencies: ["CSQLite"], path: "Sources/CBenchFloor"),

        // MARK: - Modules: dependencies point one way, down this list
        //
        // module        its job                                                     may import
        // PushJSON      JSON value, parser (tape + views), writer; UTF-8 and        Foundation
        //               terminal-text rules
        // PushCore      the domain: message model, payloads, the engine and the     PushJSON
        //               reducer, the wire (requests, replies, events: encoder and
        //               decoder each), the stream framer
        // PushSystem    the one POSIX layer: EINTR-safe system calls and their one  CSystem
        //               error type, Unix and TCP listeners, lock files, the signal
        //               pipe, peer credentials, the accept pause (descriptor limits)
        // PushStore     the SQLite store and the in-memory store, one protocol      PushCore, CSQLite
        // PushGateway   the providers' HTTP APIs: TLS, HTTP/2, HTTP/1.1, routes     PushCore, PushSystem,
        //               per vendor                                                  COpenSSL, CNGHTTP2, CHTTPParser,
        //                                                                           CXXHash
        // PushBus       the MQTT team bus (libmosquitto) in the server's loop:     PushCore, CMosquitto
        //               the outbox, receipts, retained state
        // PushServer    I/O only: the poll loop, framing, one commit a turn,        PushCore, PushStore, PushSystem
        //               replies and fan-out; front doors plug in as participants
        //               (a gateway as an `AttachedGateway`)
        // PushClient    the socket's client: locations, the peer check, typed       PushCore, PushSystem
        //               replies
        // PushTUI       cell grid, views, keys, the `Terminal` protocol             PushCore
        // PushTerminal  the curses `Terminal` (the only module that imports curses) PushTUI, CNCurses
        // PushUIHost    the full-screen UI inside the loop, over any `Terminal`     PushCore, PushStore, PushSystem,
        //                                                                           PushServer, PushTUI
        // PushScenario  scenario files, the instant player, the live player (over   PushCore, PushStore, PushClient,
        //               PushClient), the expect engine, the recorder, reports       PushGateway (instant gateway steps)
        // pushdeck      the command line, and the wiring: `ServerBuilder` is the    all
        //               only place that knows both PushServer and PushGateway (and PushBus)
        // pushdeck-bench the benchmark                                              all
        .target(name: "PushJSON", swiftSettings: strict),
        .target(name: "PushCore", dependencies: ["PushJSON"], swiftSettings: strict),
        .target(name: "PushSystem", dependencies: ["CSystem"], swiftSettings: strict),
        .target(name: "PushStore", dependencies: ["PushJSON", "PushCore", "CSQLite"], swiftSettings: strict),
        .target(name: "PushGateway", dependencies: ["PushJSON", "PushCore", "PushSystem", "COpenSSL", "CNGHTTP2", "CHTTPParser", "CXXHash"],
                swiftSettings: strict),
        .target(name: "PushBus", dependencies: ["PushJSON", "PushCore", "CMosquitto"], swiftSettings: strict),
        .target(name: "PushServer", dependencies: ["PushJSON", "PushCore", "PushStore", "PushSystem"], swiftSettings: strict),
        .target(name: "PushClient", dependencies: ["PushJSON", "PushCore", "PushSystem"], swiftSettings: strict),
        .target(name: "PushTUI", dependencies: ["PushJSON", "PushCore"], swiftSettings: strict),
        .target(name: "PushTerminal", dependencies: ["PushTUI", "CNCurses"], swiftSettings: strict),
        .target(name: "PushUIHost", dependencies: ["PushJSON", "PushCore", "PushStore", "PushSystem", "PushServer", "PushTUI"],
                swiftSettings: strict),
        .target(name: "PushScenario", dependencies: ["PushJSON", "PushCore", "PushStore", "PushClient", "PushGateway"], swiftSettings: strict),
        .executableTarget(
            name: "pushdeck",
            dependencies: ["PushJSON", "PushCore", "PushStore", "PushSystem", "PushServer", "PushClient", "PushGateway", "PushBus", "PushTUI", "PushTerminal", "PushUIHost", "PushScenario"],
            swiftSettings: strict),
        .executableTarget(
            name: "pushdeck-bench",
            dependencies: ["PushJSON", "PushCore", "PushStore", "PushSystem", "PushClient", "PushTUI", "PushTerminal", "PushScenario", "COpenSSL", "CBenchFloor"],
            swiftSettings: strict),

        // MARK: - Tests (one target per module, plus end-to-end through the real binary)
        // CSpawn: pipe2 and posix_spawn's closefrom for the tests' process runner (both need _GNU_SOURCE).
        .target(name: "CSpawn", path: "Tests/CSpawn"),
        .target(name: "TestSupport", dependencies: ["PushJSON", "PushCore", "PushSystem", "PushServer", "PushClient", "PushTUI", "CSpawn"], path: "Tests/TestSupport",
                swiftSettings: strict),
        .testTarget(name: "PushBusTests", dependencies: ["PushBus", "PushCore", "PushJSON", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PushCoreTests", dependencies: ["PushJSON", "PushCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PushSystemTests", dependencies: ["PushSystem"], swiftSettings: strict),
        .testTarget(name: "PushClientTests", dependencies: ["PushClient", "PushCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PushStoreTests", dependencies: ["PushStore", "PushTUI", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PushServerTests", dependencies: ["PushServer", "PushStore", "TestSupport"],
                    swiftSettings: strict),
        // Snapshots/ holds the grid snapshots the tests read by #filePath: not resources, not sources.
        .testTarget(name: "PushTUITests", dependencies: ["PushJSON", "PushTUI", "TestSupport"], exclude: ["Snapshots"],
                    swiftSettings: strict),
        .testTarget(name: "PushGatewayTests", dependencies: ["PushJSON", "PushGateway", "COpenSSL", "CNGHTTP2", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "PushTerminalTests", dependencies: ["PushTerminal", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PushUIHostTests", dependencies: ["PushJSON", "PushUIHost", "PushServer", "PushStore", "PushTUI", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "PushScenarioTests", dependencies: ["PushJSON", "PushScenario", "PushStore", "PushGateway", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "EndToEndTests", dependencies: ["PushJSON", "pushdeck", "PushCore", "PushStore", "PushServer", "PushClient", "PushGateway", "PushScenario", "TestSupport"],
                    swiftSettings: strict),
    ]
)
