import Foundation
import PushJSON
import Testing
import TestSupport

/// aioapns 4.0 against injected faults, asserting what its source (aioapns/connection.py,
/// client.py in the test virtualenv) says it does: a refusal is a result, not retried
/// (`APNsConnectionPool.send_notification` retries only `ConnectionClosed`,
/// `NoAvailableStreamIDError` and `FlowControlError`); a GOAWAY closes the connection
/// (`on_connection_terminated`), the request left out gets `ConnectionClosed` from
/// `connection_lost`, and the pool sends it again on a new connection.
extension APNsGatewayTests {
    @Test func aioapnsTakesAnInjected500AsItsResultAndDoesNotRetry() throws {
        let gateway = try GatewayServer()
        let key = try makeKey(in: gateway, register: false)
        #expect(try gateway.run(["fault", "add", "--vendor", "apns", "--status", "500", "--count", "1"]).status == 0)
        let results = try aioapns(gateway, key: key, [["token": .string(Self.token), "message": ["aps": ["alert": "x"]]]])
        #expect(results.first?["status"] == "500" && results.first?["description"] == "InternalServerError", "\(results)")
        let records = try RequestLogEndToEndTests.records(gateway)
        #expect(records.map { $0["status"]?.intValue } == [500], "\(records)")
        #expect(try messages(gateway).isEmpty)
    }

    @Test func aioapnsReconnectsAfterGoawayShutdownAndTheRequestArrivesOnce() throws {
        let gateway = try GatewayServer()
        let key = try makeKey(in: gateway, register: false)
        #expect(try gateway.run(["fault", "add", "--vendor", "apns", "--goaway", "--shutdown", "--count", "1"]).status == 0)
        let results = try aioapns(gateway, key: key, [["token": .string(Self.token), "message": ["aps": ["alert": "after goaway"]]]])
        #expect(results.first?["status"] == "200", "\(results)")
        let records = try RequestLogEndToEndTests.records(gateway)
        // The stream the GOAWAY left out (status 0, the fault's), then the same notification again.
        #expect(records.map { $0["status"]?.intValue } == [0, 200], "\(records)")
        #expect(records.first?["fault"] == 1 && records[0]["notificationKey"] == records.last?["notificationKey"])
        #expect(try messages(gateway).count == 1)
    }
}
