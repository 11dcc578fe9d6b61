import Glibc
import PushTUI
import Testing

/// The in-memory terminal the UI host's tests run on: it must behave as the loop expects a
/// terminal to (pollable while input waits, one read at a time, resize and hang-up as curses').
@Suite struct RecordingTerminalTests {
    func readable(_ terminal: RecordingTerminal) -> Int16 {
        var entry = pollfd(fd: terminal.inputFD, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 ? entry.revents : 0
    }

    @Test func eachSendIsOneReadAndPollSeesItWaiting() throws {
        let terminal = try RecordingTerminal(size: Size(width: 80, height: 24))
        #expect(readable(terminal) == 0)
        terminal.send(.down, .enter)
        terminal.type("/ab")
        #expect(readable(terminal) & Int16(POLLIN) != 0)
        #expect(terminal.readKeys(timeout: .zero) == [.down, .enter])
        #expect(readable(terminal) & Int16(POLLIN) != 0)
        #expect(terminal.readKeys(timeout: .seconds(1)) == [.char("/"), .char("a"), .char("b")])
        #expect(readable(terminal) == 0)
        #expect(terminal.readKeys(timeout: .zero) == [])
        #expect(!terminal.isHungUp)
    }

    @Test func aResizeIsAKeyAndTheSizeChangesOnResize() throws {
        let terminal = try RecordingTerminal(size: Size(width: 80, height: 24))
        terminal.resize(to: Size(width: 40, height: 10))
        #expect(terminal.size == Size(width: 80, height: 24))
        #expect(terminal.readKeys(timeout: .zero) == [.resize])
        #expect(terminal.size == Size(width: 80, height: 24), "the host reads the size on resize()")
        #expect(terminal.resize() == Size(width: 40, height: 10))
        #expect(terminal.size == Size(width: 40, height: 10))
    }

    @Test func aHangUpComesAfterWhatWasSent() throws {
        let terminal = try RecordingTerminal(size: Size(width: 80, height: 24))
        terminal.send([])
        terminal.hangUp()
        terminal.send(.char("x"))
        #expect(!terminal.isHungUp, "a read is still waiting")
        #expect(readable(terminal) & Int16(POLLIN | POLLHUP) != 0)
        #expect(terminal.readKeys(timeout: .zero) == [])
        #expect(terminal.isHungUp)
        #expect(readable(terminal) & Int16(POLLHUP) != 0)
        #expect(terminal.readKeys(timeout: .zero) == [], "nothing sent after the hang-up arrives")
    }

    @Test func framesAreKeptAsDrawn() throws {
        let terminal = try RecordingTerminal(size: Size(width: 4, height: 2))
        #expect(terminal.screen == "")
        var grid = Grid(width: 4, height: 2)
        _ = grid.put("hi", x: 0, y: 0)
        terminal.draw(grid)
        _ = grid.put("yo", x: 0, y: 1)
        terminal.draw(grid)
        #expect(terminal.frames.count == 2)
        #expect(terminal.frames[0].text == "hi\n")
        #expect(terminal.screen == "hi\nyo")
    }
}
