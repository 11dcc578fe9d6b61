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
}
