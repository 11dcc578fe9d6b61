import Glibc
import PushCore
import PushServer
import PushSystem
import PushStore
import PushTUI

/// The full-screen UI as a front end inside the server's loop: keys become the same requests a
/// script sends, and each turn ends with one render into a grid, drawn on the terminal.
///
/// It knows the terminal only as a `Terminal`: `CursesTerminal` when run, `RecordingTerminal` in
/// tests, with the same rules for when the screen reloads from the store and when it redraws.
public final class TerminalUI: ServerHost {
    private let terminal: any Terminal
    private let signals: SignalPipe?
    private let time: any TimeSource
    private let trace: Trace?
    private var screen: Screen
    private var shownRevision = -1
    private var lastGrid: Grid?
    private var bannerShown: Int64?
    private var framesDrawn = 0
    private let listedCounts = ListedCounts()
    private let search: FilterSearch
    private let threads = ThreadIndex()
    private var shownSearch = -1
    private let notes: Notes
    /// What the detail view's provider requests were read for: the message, and the log's
    /// newest record and seq then (a new or answered request changes them, a reset too).
    private var requestsShown: (message: Int64, nextSeq: Int, newest: Int?)?

    /// - Parameters:
    ///   - signals: the UI's signals (SIGWINCH is a resize, the others stop the loop); nil in tests.
    ///   - notes: the server's log lines, shown on the status line.
    ///   - time: the server's clock (where the banner is, relative times).
    ///   - trace: timing lines for the benchmark.
    public convenience init(
        terminal: any Terminal, signals: SignalPipe?, notes: Notes, time: any TimeSource = SystemTime(), trace: Trace?
    ) {
        self.init(terminal: terminal, signals: signals, notes: notes, time: time, trace: trace,
                  searchRange: FilterSearch.defaultRangeSize)
    }

    /// `searchRange`: ids the `/` filter searches per loop turn (tests search a small inbox in steps).
    init(terminal: any Terminal, signals: SignalPipe?, notes: Notes, time: any TimeSource, trace: Trace?, searchRange: Int64) {
        self.terminal = terminal
        self.signals = signals
        self.notes = notes
        self.time = time
        self.trace = trace
        search = FilterSearch(rangeSize: searchRange)
        screen = Screen(size: terminal.size, timeZone: .current)
    }

    public var descriptors: [Int32] { [terminal.inputFD] + (signals.map { [$0.readFD] } ?? []) }

    public func readable(_ fd: Int32, server: Server) {
        if let signals, fd == signals.readFD {
            for signal in signals.drain() {
                if signal == SIGWINCH {
                    screen.size = terminal.resize()
                } else {
                    server.stop()
                }
            }
            return
        }
        let keys = terminal.readKeys(timeout: .zero)
        if keys.isEmpty && terminal.isHungUp {
            // The terminal hung up without a SIGHUP reaching us: nothing more can be read or shown.
            server.stop()
            return
        }
        for key in keys {
            if key == .resize {
                screen.size = terminal.resize()
                continue
            }
            for action in screen.handle(key, inbox: server.inbox, now: time.now) {
                switch action {
                case .request(let request):
                    // The way a script's requests go, so the store is the judge of what is
                    // unread now (a message read from the command line meanwhile is not read twice).
                    show(server.reply(to: request))
                case .banner(let gesture): show(server.apply(gesture.event))
                case .quit: server.stop()
                default: break  // screen moves: `handle` applied them
                }
            }
        }
    }

    /// A refused request's error goes on the status line.
    private func show(_ reply: Reply?) {
        if let error = reply?.errorMessage { screen.status = error }
    }

    /// Relative times ("just now", "3m") need a redraw now and then even when nothing happens:
    /// once a minute is enough (once a second while Live Activity cards show), and costs nothing measurable. (The first frame is drawn by
    /// `Server.run` before the loop first sleeps.)
    public func deadline(after now: Instant) -> Instant? {
        // While a filter search has older messages to go, the loop goes on without sleeping.
        // A Live Activity card says "updated 3s ago": with cards shown, once a second.
        search.isSearching && !screen.filter.isEmpty ? now : now + (screen.activityCount > 0 ? 1 : 60)
    }

    /// The detail view's message's provider requests, from the request log (engine state): read
    /// again only when the message or the log has changed since.
    private func showRequests(of message: Message?, in log: RequestLog) {
        guard let message else {
            requestsShown = nil
            if !screen.detailRequests.isEmpty { screen.detailRequests = [] }
            return
        }
        let key = (message: message.id, nextSeq: log.nextSeq, newest: log.record(back: 0)?.seq)
        if let shown = requestsShown, shown == key { return }
        requestsShown = key
        screen.detailRequests = log.requests(of: message)
    }

    public func turnEnded(server: Server, now: Instant) {
        if let note = notes.take() { screen.status = note }
        if screen.gatewayAddress == nil, let address = server.gatewayAddress { screen.gatewayAddress = address }
        screen.bus = server.busStatus
        if !screen.filter.isEmpty {
            do {
                try search.advance(filter: screen.filter, in: server.store)
            } catch {
                search.abandon()
                screen.status = "store: \(error)"
            }
        }
        screen.searching = search.isSearching && !screen.filter.isEmpty
        // The Live Activity cards take rows off the list: counted before the list loads. Worked
        // out again only when the store has changed (every change of an activity is a store
        // write) or one of them has changed state on the clock since.
        let wallNow = time.wallNow
        if screen.shownActivities.revision != server.revision || !screen.shownActivities.holds(at: wallNow) {
            screen.shownActivities = ShownActivities(server.inbox.activities, at: wallNow, revision: server.revision)
        }
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
        showRequests(of: screen.detailMessage, in: inbox.requestLog)
        let grid = screen.render(inbox: inbox, now: now, date: time.wallNow, callback: inbox.callback(for:))
        guard grid != lastGrid else { return }
        terminal.draw(grid)
        lastGrid = grid
        framesDrawn += 1
        guard let trace else { return }
        let flushed = time.now
        if framesDrawn == 1 { trace.write("first-frame \(flushed.nanoseconds)") }
        let showing = inbox.bannerPhase(at: now) == .gone ? nil : inbox.banner?.message.id
        if let showing, showing != bannerShown {
            trace.write("banner \(showing) \(server.wokeAt.nanoseconds) \(flushed.nanoseconds)")
        }
        bannerShown = showing
        trace.write("frame \(flushed.nanoseconds - now.nanoseconds)")
    }
}
