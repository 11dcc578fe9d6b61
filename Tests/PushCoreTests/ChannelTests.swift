import PushCore
import Testing

@Test func appStateCyclesThroughAllThree() {
    #expect(AppState.foreground.next == .background)
    #expect(AppState.background.next == .terminated)
    #expect(AppState.terminated.next == .foreground)
}
