import PushTUI
import Testing

/// The detail view shows the deepest payload the server accepts as JSON.
@Suite struct DeepPayloadTests {
    @Test func theDetailViewPrettyPrintsAPayloadAtTheDepthLimit() {
        let depth = 512
        let payload = #"{"d":"# + String(repeating: "[", count: depth - 1) + "1" + String(repeating: "]", count: depth - 1) + "}"
        let pretty = DetailView.prettyPayload(payload)
        #expect(pretty != payload)
        #expect(pretty.hasPrefix("{\n  \"d\": [\n    [\n"))
    }
}
