/// Why pushdeck cannot draw on this terminal: each is one line a person can act on (exit 2).
public enum TerminalProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Standard output is not a terminal (a pipe, a file).
    case notATerminal
    /// `TERM` is not set.
    case termUnset
    /// `TERM` names a terminal the terminfo database does not know.
    case unknownTerminal(String)
    /// There is no terminfo database at all.
    case noTerminfo(String)
    /// The terminal cannot move the cursor (`TERM=dumb`): a full-screen UI would be garbage.
    case notAddressable(String)
    /// The locale's codeset is not UTF-8: CJK and emoji would come out blank or broken.
    case notUTF8(codeset: String)
    /// curses could not start.
    case cursesFailed(String)

    public var description: String {
        switch self {
        case .notATerminal:
            "pushdeck: standard output is not a terminal; run it in a terminal, or use `pushdeck serve` for scripts"
        case .termUnset:
            "pushdeck: TERM is not set; set it to your terminal's type (e.g. TERM=xterm-256color)"
        case .unknownTerminal(let term):
            "pushdeck: unknown terminal type TERM=\(term) (not in the terminfo database); try TERM=xterm-256color"
        case .noTerminfo(let term):
            "pushdeck: no terminfo database found for TERM=\(term); install ncurses-base or set TERMINFO"
        case .notAddressable(let term):
            "pushdeck: terminal TERM=\(term) cannot move the cursor; a full-screen UI needs one that can (e.g. xterm-256color)"
        case .notUTF8(let codeset):
            "pushdeck: the locale's character set is \(codeset), not UTF-8; set LANG=C.UTF-8 (or another UTF-8 locale)"
        case .cursesFailed(let why):
            "pushdeck: could not start the terminal UI: \(why)"
        }
    }
}
