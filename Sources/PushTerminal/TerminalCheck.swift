import CNCurses
import Foundation

/// Checks made before curses starts, because `newterm` on a bad terminal prints and exits on its
/// own or draws garbage (NOTES-SWIFT-LINUX.md).
public enum TerminalCheck {
    /// Every check, in order: a tty, a known addressable `TERM`, a UTF-8 locale. Nil means go.
    /// Sets the process locale from the environment (`setlocale(LC_ALL, "")`) as a side effect.
    public static func run(fd: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> TerminalProblem?
    {
        if let problem = tty(fd) { return problem }
        guard let term = environment["TERM"], !term.isEmpty else { return .termUnset }
        if let problem = terminfo(term: term, fd: fd) { return problem }
        return locale()
    }

    /// `fd` is a terminal.
    public static func tty(_ fd: Int32) -> TerminalProblem? {
        isatty(fd) == 1 ? nil : .notATerminal
    }

    /// terminfo knows `term`, and it can address the cursor (`cup`). Loads and frees the entry;
    /// touches curses' global `cur_term`, so the caller must be the only one using curses.
    public static func terminfo(term: String, fd: Int32) -> TerminalProblem? {
        var error: Int32 = 0
        let status = setupterm(term, fd, &error)
        defer { pd_release_setupterm() }
        if status != pd_ok() {
            // setupterm's error codes: 0 the terminal is not in the database, -1 no database.
            return error == -1 ? .noTerminfo(term) : .unknownTerminal(term)
        }
        let cup = tigetstr("cup")
        return pd_string_capability_is_missing(cup) != 0 ? .notAddressable(term) : nil
    }

    /// Sets the locale from the environment and checks its codeset is UTF-8.
    public static func locale() -> TerminalProblem? {
        setlocale(LC_ALL, "")
        let codeset = pd_codeset().map { String(cString: $0) } ?? "unknown"
        let normalized = codeset.uppercased().replacingOccurrences(of: "-", with: "")
        return normalized == "UTF8" ? nil : .notUTF8(codeset: codeset)
    }
}
