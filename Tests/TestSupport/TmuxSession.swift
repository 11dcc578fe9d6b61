import Foundation

/// A real terminal for end-to-end screen tests: a detached tmux session on its own server
/// socket (`-L`), driven with send-keys and read with capture-pane.
public final class TmuxSession: @unchecked Sendable {
    // @unchecked: immutable after init; tmux itself serializes the commands.
    public let name: String
    public let folder: TempFolder

    /// Starts `command` (run by `sh -c`) in a `width`×`height` terminal. Its exit status lands in
    /// `exitStatus` once it ends.
    public init(command: String, width: Int = 100, height: Int = 30, folder: TempFolder = TempFolder(),
                environment: [String: String] = [:]) throws {
        self.folder = folder
        name = "pd\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // No developer's own config file (XDG_CONFIG_HOME) changes what a screen test sees.
        let exports = ["XDG_CONFIG_HOME": isolatedConfigHome].merging(environment) { $1 }
            .map { "export \($0.key)='\($0.value)'; " }.joined()
        let script = "\(exports)\(command); echo $? > '\(folder.file("exit-status"))'; sleep 600"
        try tmux(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), "sh", "-c", script], output: false)
    }

    /// The screen as text, one line a row, trailing spaces removed.
    public func capture() -> String {
        (try? tmux(["capture-pane", "-p", "-t", name])) ?? ""
    }

    /// The screen with its colours and attributes as SGR escape sequences (`capture-pane -e`).
    public func captureWithAttributes() -> String {
        (try? tmux(["capture-pane", "-p", "-e", "-t", name])) ?? ""
    }

    public func sendKeys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// A left click at the cell (`x`, `y`), counted from 0: the press and release reports an
    /// xterm sends in mouse mode 1000 (`ESC [ M`, then button, column and row, each + 32, 1-based).
    public func click(x: Int, y: Int) throws {
        try sendMouse(button: 0, x: x, y: y)
        try sendMouse(button: 3, x: x, y: y)
    }

    /// Two clicks at (`x`, `y`) whose four reports reach the program in one write, as a fast
    /// double click over a busy link does (curses then merges them into a double click).
    public func doubleClick(x: Int, y: Int) throws {
        let reports = [0, 3, 0, 3].flatMap { mouseReport(button: $0, x: x, y: y) }
        try tmux(["send-keys", "-t", name, "-H"] + reports)
    }

    /// A left click at (`x`, `y`) and the keys typed after it (`text`, as UTF-8 bytes), all in one
    /// write: what a program reads when it was busy while the user clicked and typed on, or when
    /// a slow link delivers them together.
    public func click(x: Int, y: Int, thenType text: String) throws {
        let reports = [0, 3].flatMap { mouseReport(button: $0, x: x, y: y) }
        let typed = text.utf8.map { String($0, radix: 16) }
        try tmux(["send-keys", "-t", name, "-H"] + reports + typed)
    }

    /// The pointer moved to (`x`, `y`) with no button down: the motion report of any-motion
    /// mouse mode (1003), button code 3 plus the motion flag 32.
    public func move(x: Int, y: Int) throws {
        try sendMouse(button: 35, x: x, y: y)
    }

    /// One notch of the mouse wheel at (`x`, `y`).
    public func wheel(up: Bool, x: Int, y: Int) throws {
        try sendMouse(button: up ? 64 : 65, x: x, y: y)
    }

    private func sendMouse(button: Int, x: Int, y: Int) throws {
        try tmux(["send-keys", "-t", name, "-H"] + mouseReport(button: button, x: x, y: y))
    }

    /// An X10 mouse report (ESC [ M b x y) as the hex bytes `send-keys -H` takes.
    private func mouseReport(button: Int, x: Int, y: Int) -> [String] {
        [0x1B, 0x5B, 0x4D, 32 + button, 33 + x, 33 + y].map { String($0, radix: 16) }
    }

    /// The pane's title (what an OSC 0/2 sequence would change).
    public func paneTitle() throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{pane_title}"]).trimmingCharacters(in: .newlines)
    }

    /// tmux's paste buffers (what an OSC 52 clipboard write would fill).
    public func buffers() throws -> String {
        try tmux(["list-buffers"])
    }

    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// Polls the screen until `condition` holds (every 10 ms, up to `timeout` seconds): waiting
    /// for something to appear, never sleeping a fixed time. Returns the last screen seen.
    @discardableResult
    public func waitFor(timeout: Double = 5, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = capture()
        while !condition(screen) {
            if Date() > deadline { return nil }
            usleep(10_000)
            screen = capture()
        }
        return screen
    }

    /// Starts `executable` with `arguments` as the pane's own process — no shell between tmux and
    /// it, as a user's `tmux new-window pushdeck ui` runs it — and keeps the pane once it exits, so
    /// `paneExitStatus` reads the status tmux itself saw.
    public init(paneProcess executable: String, _ arguments: [String], width: Int = 100, height: Int = 30,
                folder: TempFolder = TempFolder(), environment: [String: String] = [:]) throws {
        self.folder = folder
        name = "pd\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // Through env(1), which execs: tmux sets the pane's TERM after `-e`, env after tmux.
        let variables = ["XDG_CONFIG_HOME": isolatedConfigHome].merging(environment) { $1 }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // The option first, on a server of its own: a process that ends at once still leaves its pane.
        try tmux(
            ["start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
             "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), "env"]
                + variables + [executable] + arguments,
            output: false)
    }

    /// The exit status tmux reports for the pane's own process (`paneProcess:`), once it has
    /// ended (waits up to `timeout` seconds).
    ///
    /// tmux learns a child's status only from `waitpid` on SIGCHLD, and tmux 3.3 built with
    /// libutempter loses that signal when the child exits while tmux removes the pane's utmp
    /// record: on the pane's end of file it calls `utempter_remove_record`, which sets SIGCHLD to
    /// SIG_DFL (discarded) while its helper runs. Every program exits within microseconds of its
    /// terminal closing, so any of them (a three-line C program as well) is left a zombie now and
    /// then, its status never shown. `run-shell true` makes tmux fork, and the SIGCHLD of that
    /// child has tmux reap every exited child, the lost one too.
    public func paneExitStatus(timeout: Double = 5) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let shown = try? tmux(["display-message", "-p", "#{pane_dead}:#{pane_dead_status}"]) {
                let fields = shown.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", omittingEmptySubsequences: false)
                if fields.count == 2, fields[0] == "1" {
                    if let status = Int32(fields[1]) { return status }
                    _ = try? tmux(["run-shell", "true"], output: false)
                }
            }
            usleep(10_000)
        }
        return nil
    }

    /// The command's exit status, once it has ended (waits up to `timeout` seconds).
    public func exitStatus(timeout: Double = 5) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: folder.file("exit-status"), encoding: .utf8),
                let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return status
            }
            usleep(10_000)
        }
        return nil
    }

    @discardableResult
    private func tmux(_ arguments: [String], output wantsOutput: Bool = true) throws -> String {
        let result = try Spawn.run(["tmux", "-L", name, "-f", "/dev/null"] + arguments, captureOutput: wantsOutput)
        guard result.status == 0 else { throw TmuxError(arguments: arguments) }
        return result.output
    }

    deinit { _ = try? tmux(["kill-server"]) }
}

public struct TmuxError: Error, CustomStringConvertible {
    public var arguments: [String]
    public var description: String { "tmux \(arguments.joined(separator: " ")) failed" }
}
