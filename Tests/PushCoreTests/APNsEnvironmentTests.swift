import PushCore
import Testing

@Suite struct APNsEnvironmentTests {
    /// Apple's development hosts name the sandbox whatever their case and port; anything else,
    /// pushdeck's own address included, is production.
    @Test func theHostNamesTheEnvironment() {
        for host in ["api.sandbox.push.apple.com", "api.development.push.apple.com:443", "API.Sandbox.Push.Apple.COM:2197"] {
            #expect(APNsEnvironment.of(host: host) == .sandbox, "\(host)")
        }
        for host in [nil, "", "api.push.apple.com", "127.0.0.1:8443", "api.sandbox.push.apple.com.evil", "xapi.sandbox.push.apple.com",
                     "api.sandbox.push.apple.co", ":api.sandbox.push.apple.com", "api.sandbox.push.apple.c\u{F3}m"] {
            #expect(APNsEnvironment.of(host: host) == .production, "\(host ?? "nil")")
        }
    }
}
