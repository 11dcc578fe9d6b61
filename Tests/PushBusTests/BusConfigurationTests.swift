import PushBus
import PushCore
import Testing

@Suite struct BusConfigurationTests {
    @Test func readsBrokerURLs() throws {
        let plain = try BusConfiguration(url: "mqtt://127.0.0.1:1883", caFile: nil, user: nil, password: nil, id: "ana@laptop")
        #expect(plain.host == "127.0.0.1" && plain.port == 1883 && !plain.tls)
        let secure = try BusConfiguration(url: "mqtts://broker.example", caFile: "/ca.pem", user: "ana", password: "pw", id: "ana")
        #expect(secure.port == 8883 && secure.tls && secure.caFile == "/ca.pem")
        let six = try BusConfiguration(url: "mqtt://[::1]:1884", caFile: nil, user: nil, password: nil, id: "a")
        #expect(six.host == "::1" && six.port == 1884 && six.address == "[::1]:1884")
    }

    @Test(arguments: ["http://x:1", "mqtt://x", "mqtt://:1883", "mqtt://x:0", "mqtt://x:99999", "mqtt://u@x:1", "x:1883"])
    func refusesWhatIsNoBroker(_ url: String) {
        #expect(throws: WireError.self) { try BusConfiguration(url: url, caFile: nil, user: nil, password: nil, id: "a") }
    }

    @Test(arguments: ["a/b", "a+b", "a#", "", "é", "a b"])
    func refusesIdsThatBreakTopics(_ id: String) {
        #expect(throws: WireError.self) { try BusConfiguration(url: "mqtt://x:1883", caFile: nil, user: nil, password: nil, id: id) }
    }

    @Test func defaultIdIsUserAtHost() {
        let id = BusConfiguration.defaultId(environment: ["USER": "ana b"])
        #expect(id.hasPrefix("ana-b@") && BusIdentity.isValid(id))
    }
}
