/// Realistic ~300-byte APNs payloads, Chinese and English, each one different.
enum Payloads {
    static func apns(_ index: Int) -> [UInt8] {
        let text: String
        if index % 2 == 0 {
            text = #"{"aps":{"alert":{"title":"訂單 \#(1_270_339 + index) 已發貨","subtitle":"官方客服","body":"您有一條新消息：訂單已發貨，點擊查看物流詳情。"},"badge":\#(index % 50),"sound":"default","thread-id":"orders"},"Simulator Target Bundle":"com.example.shop","orderId":"\#(index)"}"#
        } else {
            text = #"{"aps":{"alert":{"title":"Morning brief #\#(index)","body":"Markets open higher; the red packet promotion ends tonight at 22:00. Tap to read the full story."},"sound":"default","category":"NEWS"},"Simulator Target Bundle":"com.example.news","storyId":"s-\#(index)"}"#
        }
        return Array(text.utf8)
    }

    /// `count` payloads back to back, as a pipelining client writes them.
    static func stream(_ range: Range<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count * 330)
        for index in range {
            bytes += apns(index)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// A 2.3 KB APNs payload (a long alert and custom data): what the socket's and the gateway's
    /// like-for-like figures both send, byte for byte.
    static func large() -> [UInt8] {
        Array((largeHead + largePad + largeTail).utf8)
    }

    /// The same notification as an FCM HTTP v1 send to an Android token: the alert's title and
    /// body as the notification, the badge as `android.notification.notification_count`, the
    /// custom field as data, the same bytes each (2 397 bytes with FCM's JSON around them).
    static func largeFCM() -> [UInt8] {
        let head = #"{"message":{"token":"bench:APA91b-bench_token","notification":{"title":"Bench","body":"\#(largeBody)"},"android":{"notification":{"notification_count":1}},"data":{"pad":""#
        return Array((head + largePad + #""}}}"#).utf8)
    }

    static let largeBody = "a 2.3 KB payload, the same through the socket and the gateway"
    private static let largeHead = #"{"aps":{"alert":{"title":"Bench","body":"\#(largeBody)"},"badge":1},"pad":""#
    private static let largeTail = #""}"#
    /// The custom field's value: what brings the APNs payload to 2 300 bytes.
    private static let largePad = String(repeating: "x", count: 2300 - largeHead.utf8.count - largeTail.utf8.count)
}
