import Foundation
import Glibc
import PushCore
import PushGateway
import PushServer
import PushStore
import PushTUI
import PushTerminal
import PushJSON

/// The full-screen UI as a front end inside the server's loop: keys become the same requests a
/// script sends, and each turn ends with one render into a grid, diffed onto the terminal.
final class TerminalUI: ServerHost {
    private let terminal: CursesTerminal
    private let signals: SignalPipe
    private let time: any TimeSource
    private let trace: Trace?
    private var screen: Screen
    private var shownRevision = -1
    private var lastGrid: Grid?
    private var bannerShown: Int64?
    private var framesDrawn = 0
    private let listedCounts = ListedCounts()
    private let search = FilterSearch()
    private let threads = ThreadIndex()
    private var shownSearch = -1
    private let notes: Notes

    init(terminal: CursesTerminal, signals: SignalPipe, notes: Notes, time: any TimeSource = SystemTime(), trace: Trace?) {
        self.terminal = terminal
        self.signals = signals
        self.notes = notes
        self.time = time
        self.trace = trace
        screen = Screen(size: terminal.size, timeZone: .current)
    }

    var descriptors: [Int32] { [terminal.inputFD, signals.readFD] }

    func readable(_ fd: Int32, server: Server) {
        if fd == signals.readFD {
            for signal in signals.drain() {
                if signal == SIGWINCH {
                    screen.size = terminal.resize()
                } else {
                    server.stop()
                }
            }
            return
        }
        let keys = terminal.readKeys()
        if keys.isEmpty && terminalIsGone() {
            // The terminal hung up without a SIGHUP reaching us: nothing more can be read or shown.
            server.stop()
            return
        }
        for key in keys {
            if key == .resize {
                screen.size = terminal.resize()
                continue
            }
            let now = time.now
            let actions = screen.handle(key, inbox: server.inbox, now: now, bannerPhase: server.inbox.bannerPhase(at: now))
            for action in actions {
                switch action {
                case .send(let event): send(event, to: server)
                case .quit: server.stop()
                default: break  // screen moves: `handle` applied them
                }
            }
        }
    }

    /// True when the input side of the terminal reports a hang-up or an error.
    private func terminalIsGone() -> Bool {
        var input = pollfd(fd: terminal.inputFD, events: Int16(POLLIN), revents: 0)
        guard poll(&input, 1, 0) == 1 else { return false }
        return input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Inbox commands go the way a script's requests go, so the store is the judge of what is
    /// unread now (a message read from the command line meanwhile is not read twice).
    private func send(_ event: Event, to server: Server) {
        let reply: JSONObject?
        switch event {
        case .read(let messages): reply = server.perform(.read(.ids(messages.map(\.id))))
        case .readAll(let app): reply = server.perform(.read(.all(app: app)))
        case .delete(let messages): reply = server.perform(.delete(messages.map(\.id)))
        case .badge(let app, let change, let sync): reply = server.perform(.badge(app: app, change: change, sync: sync))
        case .setMode(let mode): reply = server.perform(.mode(mode))
        case .setAppState(let state): reply = server.perform(.app(state))
        case .reset(let app, let all): reply = server.perform(.reset(app: app, all: all))
        case .push, .openBanner, .dismissBanner, .tick, .setBadgePolicy, .sdkBadge, .mute, .unmute, .setQuiet, .expireHeld, .device, .key,
             .pauseBanner:
            reply = server.dispatch(event)
        }
        if let reply, reply["ok"] == .bool(false) {
            screen.status = reply["error"]?.stringValue
        }
    }

    /// Relative times ("just now", "3m") need a redraw now and then even when nothing happens:
    /// once a minute is enough, and costs nothing measurable. (The first frame is drawn by
    /// `Server.run` before the loop first sleeps.)
    func deadline(after now: Instant) -> Instant? {
        // While a filter search has older messages to go, the loop goes on without sleeping.
        search.isSearching && !screen.filter.isEmpty ? now : now + 60
    }

    func turnEnded(server: Server, now: Instant) {
        if let note = notes.take() { screen.status = note }
        if screen.gatewayAddress == nil, let gateway = server.gateway { screen.gatewayAddress = gateway.address.description }
        if !screen.filter.isEmpty {
            do {
                try search.advance(filter: screen.filter, in: server.store)
            } catch {
                search.abandon()
                screen.status = "store: \(error)"
            }
        }
        screen.searching = search.isSearching && !screen.filter.isEmpty
        if screen.query.groups {
            do {
                try threads.update(in: server.store)
            } catch {
                threads.reset()
                screen.status = "store: \(error)"
            }
        }
        if server.revision != shownRevision || screen.needsLoad || search.generation != shownSearch {
            screen.load(from: StoreMessages(
                store: server.store, counts: listedCounts, revision: server.revision,
                search: screen.filter.isEmpty ? nil : search, threads: threads
            ) { [notes] in notes.add($0) })
            shownRevision = server.revision
            shownSearch = search.generation
        }
        let inbox = server.inbox
        let phase = inbox.bannerPhase(at: now)
        let grid = screen.render(inbox: inbox, now: now, date: time.wallNow, bannerPhase: phase, callback: inbox.callback(for:))
        guard grid != lastGrid else { return }
        terminal.draw(grid)
        lastGrid = grid
        framesDrawn += 1
        guard let trace else { return }
        let flushed = time.now
        if framesDrawn == 1 { trace.write("first-frame \(flushed.nanoseconds)") }
        let showing = phase == .gone ? nil : inbox.banner?.message.id
        if let showing, showing != bannerShown {
            trace.write("banner \(showing) \(server.wokeAt.nanoseconds) \(flushed.nanoseconds)")
        }
        bannerShown = showing
        trace.write("frame \(flushed.nanoseconds - now.nanoseconds)")
    }
}

/// Log lines the server produces while the UI owns the screen: shown on the status line instead
/// of being written over the screen.
final class Notes: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `lock`.
    private let lock = NSLock()
    private var pending: String?
    func add(_ note: String) { lock.withLock { pending = note } }
    func take() -> String? { lock.withLock { defer { pending = nil }; return pending } }
}

/// Timing lines for the benchmark (`PUSHDECK_TRACE=FILE`): monotonic nanoseconds, one event a line.
final class Trace {
    private let handle: FileHandle

    init?(path: String?) {
        guard let path, !path.isEmpty, FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { return nil }
        self.handle = handle
    }

    func write(_ line: String) {
        handle.write(Data((line + "\n").utf8))
    }
}
