@testable import PushCore
import PushJSON
import Testing

/// The field tables the v1 reader matches member names against on their bytes, and the
/// matching itself: escapes, text beyond ASCII and canonical equivalence read as a string would.
@Suite("FCM field names")
struct FCMFieldSetTests {
    static func check<Field: FCMFieldSet>(_: Field.Type) {
        #expect(Field.names.count == Field.allCases.count, "\(Field.self)")
        var seen: [String] = []
        for (index, name) in Field.names.enumerated() {
            let proto = name.proto.description
            // A JSON name is written out exactly when the proto name has one of its own.
            #expect(name.json?.description == (proto.contains("_") ? FCMReader.jsonName(proto) : nil), "\(Field.self).\(proto)")
            #expect(Field(rawValue: index) != nil)
            for spelling in [proto] + (name.json.map { [$0.description] } ?? []) {
                #expect(!seen.contains(spelling), "\(spelling) names two fields of \(Field.self)")
                seen.append(spelling)
            }
        }
    }

    @Test func everyTableNamesEachCaseOnceInBothSpellings() {
        Self.check(FCMMessageField.self)
        Self.check(FCMNotificationField.self)
        Self.check(FCMAndroidConfigField.self)
        Self.check(FCMAndroidNotificationField.self)
        Self.check(FCMApnsConfigField.self)
        Self.check(FCMWebpushConfigField.self)
        Self.check(FCMAnalyticsOptionsField.self)
        Self.check(FCMApnsOptionsField.self)
        Self.check(FCMWebpushOptionsField.self)
    }

    /// The field each member of `object` is, in order (nil for an unknown name).
    static func fields<Field: FCMFieldSet>(_ object: String, _: Field.Type) throws -> [Field?] {
        var fields: [Field?] = []
        try JSONTape.parse(Array(object.utf8)).root.forEachMember { name, _ in fields.append(Field.field(named: name)) }
        return fields
    }

    @Test func namesMatchInEitherSpellingOnTheirBytesAndAsText() throws {
        #expect(try Self.fields(#"{"collapse_key":1,"collapseKey":2,"ttl":3,"Ttl":4,"collapse_Key":5,"":6}"#, FCMAndroidConfigField.self)
            == [.collapseKey, .collapseKey, .ttl, nil, nil, nil])
        // Escaped and beyond ASCII: compared as the decoded text, as a string comparison does.
        #expect(try Self.fields(#"{"t\u0074l":1,"\u0070riority":2,"ttl\u00e9":3,"ttl ":4}"#, FCMAndroidConfigField.self)
            == [.ttl, .priority, nil, nil])
        #expect(try Self.fields(#"{"tok\u0065n":"t","fid":"f","Token":"x"}"#, FCMMessageField.self) == [.token, .fid, nil])
    }

    /// An unknown name is quoted as the member spelled it, escapes decoded; a target's name
    /// in a oneof refusal likewise.
    @Test func refusalsQuoteTheNamesAsGiven() throws {
        let unknown = #"{"token":"t","android":{"ttl\u00e9":1,"x\"y":2}}"#
        guard case .failure(let invalid) = FCMMessage.decode(try JSONTape.parse(Array(unknown.utf8)).root) else {
            Issue.record("decoded")
            return
        }
        #expect(invalid.violations.map(\.description) == [
            #"Invalid JSON payload received. Unknown name "ttlé" at 'message.android': Cannot find field."#,
            #"Invalid JSON payload received. Unknown name "x\"y" at 'message.android': Cannot find field."#,
        ])
        let twice = #"{"token":"t","x":1,"\u0074opic":"n","condition":null,"fid":5}"#
        guard case .failure(let oneof) = FCMMessage.decode(try JSONTape.parse(Array(twice.utf8)).root) else {
            Issue.record("decoded")
            return
        }
        // Unknown names first, then the oneof as the parser meets each later target (a null is absent).
        #expect(oneof.violations.map(\.description) == [
            #"Invalid JSON payload received. Unknown name "x" at 'message': Cannot find field."#,
            "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'",
            "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'fid'",
        ])
        let array = #"{"topic":["a"]}"#
        guard case .failure(let repeated) = FCMMessage.decode(try JSONTape.parse(Array(array.utf8)).root) else {
            Issue.record("decoded")
            return
        }
        #expect(repeated.violations.map(\.description) == [
            #"Invalid JSON payload received. Unknown name "topic" at 'message': Proto field is not repeating, cannot start list."#,
        ])
    }
}

/// The store's text of an FCM message's options, written directly, is the object's text.
@Suite("FCM options text")
struct FCMOptionsTextTests {
    @Test(arguments: [
        FCMFacts(project: "p", messageName: "n", platform: .android),
        FCMFacts(project: "p", messageName: "n", platform: .ios, collapseKey: "scores", ttlSeconds: 3600, priority: .high, tag: "t", notificationCount: 3),
        FCMFacts(project: "p", messageName: "n", platform: .android, collapseKey: "a\"b\\c\n\u{7F}é", ttlSeconds: 3.5, priority: .normal, tag: "\u{202E}x",
                 notificationCount: -1),
        FCMFacts(project: "p", messageName: "n", platform: .android, ttlSeconds: 0, notificationCount: 0),
    ])
    func isTheOptionsObjectsCompactText(facts: FCMFacts) throws {
        #expect(facts.optionsText == facts.optionsJSON.compactText)
        #expect(FCMFacts(project: "p", messageName: "n", options: try JSON.parse(facts.optionsText)) == facts)
    }
}
