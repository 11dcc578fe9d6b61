import Glibc
import Testing
import PushSystem

@Suite("Signal self-pipe")
struct SignalPipeTests {
    @Test func aSignalBecomesAByteOnThePipe() throws {
        let pipe = try SignalPipe(signals: [SIGUSR1])
        #expect(pipe.drain().isEmpty)
        // Test threads may block the signal, so it is sent to the process and awaited with poll
        // (which returns as soon as the byte is there).
        kill(getpid(), SIGUSR1)
        var ready = pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5000) == 1)
        #expect(pipe.drain() == [SIGUSR1])
        #expect(pipe.drain().isEmpty)
        // The read end never blocks the loop.
        #expect(fcntl(pipe.readFD, F_GETFL) & O_NONBLOCK != 0)
    }
}
