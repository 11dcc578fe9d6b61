import PushCore
import PushJSON
import Testing

/// The v1 `message` decoded as FCM's front end decodes it: each row a message and FCM's answer
/// (the `error.message` and each field violation's path), as FCM writes them back.
@Suite("FCM message decoding")
struct FCMDecodeTests {
    struct Refusal: Sendable, CustomTestStringConvertible {
        let message: String
        let error: String
        let fields: [String]
        var testDescription: String { message }
    }

    static let refusals: [Refusal] = [
        // An unknown name: where it is, and the object as the violation's field.
        Refusal(message: #"{"token":"t","android":{"x":1}}"#,
                error: #"Invalid JSON payload received. Unknown name "x" at 'message.android': Cannot find field."#,
                fields: ["message.android"]),
        Refusal(message: #"{"token":"t","notification":{"title":"a","data":{}}}"#,
                error: #"Invalid JSON payload received. Unknown name "data" at 'message.notification': Cannot find field."#,
                fields: ["message.notification"]),
        // The legacy API's fields in a v1 message: each named.
        Refusal(message: #"{"to":"t","priority":"high"}"#,
                error: "Invalid JSON payload received. Unknown name \"to\" at 'message': Cannot find field.\nInvalid JSON payload received. Unknown name \"priority\" at 'message': Cannot find field.",
                fields: ["message", "message"]),
        // Data values are strings, entries numbered in the order given.
        Refusal(message: #"{"token":"t","data":{"a":"1","b":2}}"#,
                error: "Invalid value at 'message.data[1].value' (TYPE_STRING), 2", fields: ["message.data[1].value"]),
        Refusal(message: #"{"token":"t","android":{"data":{"a":true}}}"#,
                error: "Invalid value at 'message.android.data[0].value' (TYPE_STRING), true",
                fields: ["message.android.data[0].value"]),
        Refusal(message: #"{"token":"t","data":{"a":{"b":"c"}}}"#,
                error: "Invalid value at 'message.data[0].value' (TYPE_STRING), Starting an object on a scalar field",
                fields: ["message.data[0].value"]),
        // Targets: none, or more than one of the oneof.
        Refusal(message: #"{"notification":{"title":"a"}}"#, error: "Recipient of the message is not set.", fields: ["message"]),
        Refusal(message: #"{"token":"t","topic":"news"}"#,
                error: "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'",
                fields: ["message"]),
        Refusal(message: #"{"topic":"/topics/news"}"#, error: "Request contains an invalid argument.", fields: ["message.topic"]),
        Refusal(message: #"{"topic":"a b"}"#, error: "Request contains an invalid argument.", fields: ["message.topic"]),
        // Android options.
        Refusal(message: #"{"token":"t","android":{"ttl":"10"}}"#,
                error: #"Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), "10""#,
                fields: ["message.android.ttl"]),
        Refusal(message: #"{"token":"t","android":{"ttl":3600}}"#,
                error: "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), 3600",
                fields: ["message.android.ttl"]),
        Refusal(message: #"{"token":"t","android":{"priority":"URGENT"}}"#,
                error: #"Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "URGENT""#,
                fields: ["message.android.priority"]),
        Refusal(message: #"{"token":"t","android":{"priority":"high"}}"#,
                error: #"Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "high""#,
                fields: ["message.android.priority"]),
        Refusal(message: #"{"token":"t","android":{"notification":{"notification_count":-1}}}"#,
                error: "Request contains an invalid argument.", fields: ["message.android.notification.notification_count"]),
        Refusal(message: #"{"token":"t","android":{"notification":{"notification_count":"x"}}}"#,
                error: #"Invalid value at 'message.android.notification.notification_count' (TYPE_INT32), "x""#,
                fields: ["message.android.notification.notification_count"]),
        Refusal(message: #"{"token":"t","android":{"notification":{"visibility":"HIDDEN"}}}"#,
                error: #"Invalid value at 'message.android.notification.visibility' (type.googleapis.com/google.firebase.fcm.v1.AndroidNotification.Visibility), "HIDDEN""#,
                fields: ["message.android.notification.visibility"]),
        Refusal(message: #"{"token":"t","android":{"direct_boot_ok":"yes"}}"#,
                error: #"Invalid value at 'message.android.direct_boot_ok' (TYPE_BOOL), "yes""#,
                fields: ["message.android.direct_boot_ok"]),
        Refusal(message: #"{"token":"t","android":{"notification":{"body_loc_args":["a",1]}}}"#,
                error: "Invalid value at 'message.android.notification.body_loc_args[1]' (TYPE_STRING), 1",
                fields: ["message.android.notification.body_loc_args[1]"]),
        // Wrong types of the message's parts.
        Refusal(message: #"{"token":"t","notification":"hello"}"#,
                error: #"Invalid value at 'message.notification' (type.googleapis.com/google.firebase.fcm.v1.Notification), "hello""#,
                fields: ["message.notification"]),
        Refusal(message: #"{"token":"t","notification":{"title":["a"]}}"#,
                error: #"Invalid JSON payload received. Unknown name "title" at 'message.notification': Proto field is not repeating, cannot start list."#,
                fields: ["message.notification"]),
        Refusal(message: #"{"token":5}"#, error: "Invalid value at 'message.token' (TYPE_STRING), 5", fields: ["message.token"]),
        Refusal(message: #"{"token":"t","apns":{"payload":"x"}}"#,
                error: #"Invalid value at 'message.apns.payload' (type.googleapis.com/google.protobuf.Struct), "x""#,
                fields: ["message.apns.payload"]),
        Refusal(message: #"{"token":"t","apns":{"headers":{"apns-priority":10}}}"#,
                error: "Invalid value at 'message.apns.headers[0].value' (TYPE_STRING), 10",
                fields: ["message.apns.headers[0].value"]),
        Refusal(message: #"{"token":"t","webpush":{"notification":{},"link":"x"}}"#,
                error: #"Invalid JSON payload received. Unknown name "link" at 'message.webpush': Cannot find field."#,
                fields: ["message.webpush"]),
        Refusal(message: "[]",
                error: #"Invalid JSON payload received. Unknown name "message": Proto field is not repeating, cannot start list."#,
                fields: [""]),
    ]

    @Test(arguments: refusals)
    func refusedAsFCMRefusesIt(_ row: Refusal) throws {
        let tape = try JSONTape.parse(Array(row.message.utf8))
        let result = FCMMessage.decode(tape.root)
        guard case .failure(let invalid) = result else {
            Issue.record("accepted: \(row.message)")
            return
        }
        #expect(invalid.message == row.error)
        #expect(invalid.violations.map(\.field) == row.fields)
        if invalid.violations.count == 1 { #expect(invalid.violations[0].description == row.error || invalid.message == FCMMessage.invalidArgumentMessage) }
    }

    @Test func overFourKilobytesOfDataAndNotificationIsTooBig() throws {
        let big = String(repeating: "x", count: 4000)
        let text = #"{"token":"t","notification":{"title":"\#(big)"},"data":{"k":"\#(String(repeating: "y", count: 100))"}}"#
        let result = FCMMessage.decode(try JSONTape.parse(Array(text.utf8)).root)
        #expect(result == .failure(FCMInvalid(message: "Android message is too big")))
        let fits = #"{"token":"t","notification":{"title":"\#(big)"}}"#
        #expect((try? FCMMessage.decode(try JSONTape.parse(Array(fits.utf8)).root).get()) != nil)
    }

    @Test func everyFieldOfTheReferenceIsTakenInEitherSpelling() throws {
        let text = #"""
        {"name":"ignored","fid":"installation-1","data":{"a":"1"},
         "notification":{"title":"T","body":"B","image":"https://x/i.png"},
         "android":{"collapseKey":"scores","priority":"HIGH","ttl":"3.5s","restricted_package_name":"com.example.shop",
           "data":{"b":"2"},"fcm_options":{"analytics_label":"l"},"direct_boot_ok":true,"bandwidthConstrainedOk":false,
           "restricted_satellite_ok":false,
           "notification":{"title":"AT","body":"AB","icon":"ic","color":"#ff0000","sound":"default","tag":"score",
             "click_action":"OPEN","body_loc_key":"k","body_loc_args":["1"],"title_loc_key":"tk","title_loc_args":[],
             "channel_id":"c","ticker":"t","sticky":true,"event_time":"2026-12-01T00:00:00Z","local_only":false,
             "notification_priority":"PRIORITY_HIGH","default_sound":true,"default_vibrate_timings":false,
             "default_light_settings":false,"vibrate_timings":["0.5s"],"visibility":"PUBLIC","notificationCount":3,
             "light_settings":{"color":{"red":1},"light_on_duration":"1s","light_off_duration":"1s"},
             "image":"https://x/a.png","bypass_proxy_notification":false,"proxy":"DENY"}},
         "apns":{"headers":{"apns-priority":"10"},"payload":{"aps":{"badge":1}},"fcm_options":{"analytics_label":"l","image":"i"},
           "live_activity_token":"la"},
         "webpush":{"headers":{},"data":{},"notification":{"title":"w"},"fcm_options":{"link":"https://x","analytics_label":"l"}},
         "fcm_options":{"analytics_label":"top"}}
        """#
        let message = try FCMMessage.decode(try JSONTape.parse(Array(text.utf8)).root).get()
        #expect(message.target == .token("installation-1"))
        #expect(message.android?.collapseKey == "scores")
        #expect(message.android?.priority == .high)
        #expect(message.android?.ttlSeconds == 3.5)
        #expect(message.android?.notification?.tag == "score")
        #expect(message.android?.notification?.notificationCount == 3)
        #expect(message.android?.notification?.visibility == "PUBLIC")
        #expect(message.androidData == ["b": "2"])
        #expect(message.apns?.headers == ["apns-priority": "10"])
        #expect(message.analyticsLabel == "top")
        #expect(message.isNotificationMessage)
    }

    /// A name given twice, in one spelling or both, is the last one given; a null after a value
    /// leaves the value (null is absent).
    @Test func theLastOfARepeatedNameCounts() throws {
        let text = #"{"token":"t","notification":{"title":"a","title":"b","body":"c","body":null},"android":{"collapse_key":"x","collapseKey":"y","notification":{"notificationCount":1,"notification_count":2}}}"#
        let message = try FCMMessage.decode(try JSONTape.parse(Array(text.utf8)).root).get()
        #expect(message.notification?.title == "b")
        #expect(message.notification?.body == "c")
        #expect(message.android?.collapseKey == "y")
        #expect(message.android?.notification?.notificationCount == 2)
    }

    @Test func nullIsAbsentAndEnumsTakeTheirNumbers() throws {
        let text = #"{"topic":"news","notification":null,"android":{"priority":1,"notification":null}}"#
        let message = try FCMMessage.decode(try JSONTape.parse(Array(text.utf8)).root).get()
        #expect(message.target == .topic("news"))
        #expect(message.android?.priority == .high)
        #expect(!message.isNotificationMessage)
    }
}
