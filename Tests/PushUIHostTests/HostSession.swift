import PushCore
import PushJSON
import PushServer
import PushStore
import PushTUI
import TestSupport
@testable import PushUIHost

/// The UI host in the real server loop (`Server.run`), on a `RecordingTerminal`, a manual clock
/// and a real SQLite file: a script of steps, one loop turn each, and what was on screen after each.
///
/// The steps are fed to the terminal one turn at a time; when they run out the terminal hangs up
/// and the loop ends as it does when a real terminal goes away.
final class HostSession {
    enum Step {
        /// Keys arriving in one read; none is a turn without input.
        case keys([Key])
        /// Each character typed, in one read.
        case type(String)
        /// The window changes size.
        case resize(Size)
        /// A script's request, handled in that turn as a socket client's is.
        case request(Request)
        /// The clock moves on (where the banner is, relative times) at the start of the turn.
        case wait(seconds: Double)
        /// The server logs a line while the UI owns the screen.
        case log(String)
    }

    let folder = TempFolder()
    let clock = ManualClock()
    let notes = Notes()
    let terminal: RecordingTerminal
    /// The screen after each step; `screens[0]` is the first frame, before any step.
    private(set) var screens: [String] = []
    /// Whether the host asked the loop not to sleep after each step (a filter search going on).
    private(set) var sleepless: [Bool] = []
    /// Replies to the `.request` steps, in order.
    private(set) var replies: [JSONObject] = []
    /// How many steps were read before the loop ended.
    private(set) var stepsTaken = 0

    var databasePath: String { folder.file("inbox.sqlite") }

    /// Stores `seed` in a new inbox file first.
    init(size: Size = Size(width: 80, height: 24), seed: [Message] = []) throws {
        terminal = try RecordingTerminal(size: size)
        let store = try Store(path: databasePath)
        defer { store.close() }
        try store.write(SampleMessages.storeChanges(seed))
    }

    /// Runs the loop until the steps are done (or a key quits); the store is closed after.
    func run(_ steps: [Step], searchRange: Int64 = FilterSearch.defaultRangeSize) throws {
        var options = ServerOptions()
        options.log = { [notes] in notes.add($0) }
        let server = try Server(store: try Store(path: databasePath), listener: nil, signals: nil, options: options, time: clock)
        let ui = TerminalUI(terminal: terminal, signals: nil, notes: notes, time: clock, trace: nil, searchRange: searchRange)
        let script = Script(session: self, ui: ui, steps: steps)
        server.run(host: script)
    }

    /// The inbox file as the loop left it.
    func store() throws -> Store { try Store(path: databasePath) }

    /// The last screen's rows.
    var lastRows: [String] { (screens.last ?? "").components(separatedBy: "\n") }

    /// Feeds the steps one per turn and notes the screen after each.
    private final class Script: ServerHost {
        let session: HostSession
        let ui: TerminalUI
        var steps: [Step]
        /// The step fed to the terminal, read in the coming turn.
        var current: Step?
        var hungUp = false

        init(session: HostSession, ui: TerminalUI, steps: [Step]) {
            self.session = session
            self.ui = ui
            self.steps = steps
        }

        var descriptors: [Int32] { ui.descriptors }

        func readable(_ fd: Int32, server: Server) {
            if let step = current {
                current = nil
                session.stepsTaken += 1
                switch step {
                case .request(let request): session.replies.append(server.perform(request))
                case .wait(let seconds): session.clock.advance(by: seconds)
                case .log(let line): server.options.log(line)
                case .keys, .type, .resize: break
                }
            }
            ui.readable(fd, server: server)
        }

        func deadline(after now: Instant) -> Instant? { ui.deadline(after: now) }

        func turnEnded(server: Server, now: Instant) {
            ui.turnEnded(server: server, now: now)
            guard !hungUp else { return }
            session.screens.append(session.terminal.screen)
            session.sleepless.append(ui.deadline(after: now) == now)
            guard !steps.isEmpty else {
                hungUp = true
                session.terminal.hangUp()
                return
            }
            let step = steps.removeFirst()
            current = step
            switch step {
            case .keys(let keys): session.terminal.send(keys)
            case .type(let text): session.terminal.type(text)
            case .resize(let size): session.terminal.resize(to: size)
            case .request, .wait, .log: session.terminal.send([])
            }
        }
    }
}
