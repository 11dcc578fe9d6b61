import Foundation
import PushCore
import Testing
import TestSupport

/// Threads on screen: pushes through the real socket, the real UI in tmux.
@Suite struct ThreadScreenTests {
    @Test func aThreadIsOneRowThatEnterOpensByRelevanceAndTListsFlat() throws {
        let ui = try ScreenTests.Running(width: 100, height: 30)
        #expect(ui.tmux.waitFor { $0.contains("PUSH [ON]") } != nil, "\(ui.tmux.capture())")
        #expect(try runPushdeck(["app", "--socket", ui.socket, "background"]).status == 0)
        func send(_ payload: String) throws {
            let sent = try runPushdeck(["send", "--socket", ui.socket, "--app", "com.example.shop", "-"], stdin: Data(payload.utf8))
            #expect(sent.status == 0, "\(sent.stderr)")
        }
        try send(#"{"aps":{"alert":{"title":"Alone","body":"no thread"}}}"#)
        try send(#"{"aps":{"alert":{"title":"Order A","body":"packed"},"thread-id":"orders","relevance-score":0.2}}"#)
        try send(#"{"aps":{"alert":{"title":"Order B","body":"shipped"},"thread-id":"orders","relevance-score":0.9}}"#)
        try send(#"{"aps":{"alert":{"title":"Order C","body":"delivered"},"thread-id":"orders","relevance-score":0.2}}"#)

        func rows(_ screen: String?) -> [String] {
            (screen ?? "").split(separator: "\n").map(String.init).filter { $0.contains("Order") || $0.contains("Alone") }
        }
        let grouped = ui.tmux.waitFor { $0.contains("▸ 3 Order C") && $0.contains("Alone") }
        #expect(grouped != nil, "\(ui.tmux.capture())")
        #expect(rows(grouped).count == 2, "\(grouped ?? "")")
        #expect(grouped?.contains("t threads") == true)

        try ui.tmux.sendKeys("Enter")
        let open = ui.tmux.waitFor { $0.contains("▾ 3 Order C") }
        #expect(open != nil, "\(ui.tmux.capture())")
        // The thread's row, then its messages: the highest relevance first, then the newest.
        let openRows = rows(open)
        #expect(openRows.count == 5, "\(open ?? "")")
        if openRows.count == 5 {
            #expect(openRows[1].contains("  Order B"))
            #expect(openRows[2].contains("  Order C"))
            #expect(openRows[3].contains("  Order A"))
            #expect(openRows[4].contains("Alone"))
        }
        // Opening a thread reads nothing.
        #expect(open?.split(separator: "\n").first?.contains("4 unread") == true)

        try ui.tmux.sendKeys("t")
        let flat = ui.tmux.waitFor { !$0.contains("▾") && !$0.contains("▸") && $0.contains("Order A") }
        #expect(flat != nil, "\(ui.tmux.capture())")
        #expect(rows(flat).map { $0.contains("Order C") || $0.contains("Order B") || $0.contains("Order A") }
            == [true, true, true, false])
        try ui.tmux.sendKeys("q")
    }
}
