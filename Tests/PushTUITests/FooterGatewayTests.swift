import PushCore
import PushTUI
import Testing
import TestSupport

/// The footer names the provider gateway while one runs, and only then.
@Suite struct FooterGatewayTests {
    @Test func theFooterNamesTheGatewayBesideTheListPosition() {
        var screen = Screen(size: Size(width: 100, height: 24))
        screen.load(from: CountingSource(total: 3))
        let without = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now).rowText(23)
        #expect(!without.contains("gateway"))
        screen.gatewayAddress = "127.0.0.1:2197"
        let with = screen.render(inbox: Inbox(), now: .zero, date: SampleMessages.now).rowText(23)
        #expect(with.contains("gateway 127.0.0.1:2197  1/3"), "\(with)")
        #expect(with.contains("? help"), "the key hints give way, not the gateway: \(with)")
    }
}
