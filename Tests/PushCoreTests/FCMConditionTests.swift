import PushCore
import Testing

@Suite struct FCMConditionTests {
    @Test func theDocumentedExampleParsesAndEvaluates() throws {
        let condition = try FCMCondition(parsing: "'TopicA' in topics && ('TopicB' in topics || 'TopicC' in topics)")
        #expect(condition == .and(.topic("TopicA"), .or(.topic("TopicB"), .topic("TopicC"))))
        #expect(condition.matches(["TopicA", "TopicB"]))
        #expect(condition.matches(["TopicA", "TopicC"]))
        #expect(!condition.matches(["TopicA"]))
        #expect(!condition.matches(["TopicB", "TopicC"]))
        #expect(condition.topics == ["TopicA", "TopicB", "TopicC"])
    }

    @Test func notAndPrecedence() throws {
        let condition = try FCMCondition(parsing: "'a' in topics && ('b' in topics || !('c' in topics))")
        #expect(condition.matches(["a"]))
        #expect(condition.matches(["a", "b", "c"]))
        #expect(!condition.matches(["a", "c"]))
        #expect(!condition.matches([]))
        // && binds tighter than ||.
        let loose = try FCMCondition(parsing: #""a" in topics || 'b' in topics && 'c' in topics"#)
        #expect(loose == .or(.topic("a"), .and(.topic("b"), .topic("c"))))
        #expect(try FCMCondition(parsing: "!'x' in topics").matches([]))
    }

    /// Each refused condition, FCM's answer being "Invalid condition expression provided.".
    @Test(arguments: [
        "", "'a'", "'a' in topic", "'a' in topicsX", "'a' in topics &&", "('a' in topics", "'a' in topics)",
        "'a b' in topics", "'a' in topics & 'b' in topics", "'a' in topics || || 'b' in topics", "'a in topics",
        "'a' in topics && 'b' in topics && 'c' in topics && 'd' in topics && 'e' in topics && 'f' in topics",
        String(repeating: "(", count: 100) + "'a' in topics" + String(repeating: ")", count: 100),
    ])
    func refused(_ text: String) {
        #expect(throws: FCMCondition.Invalid.self) { try FCMCondition(parsing: text) }
    }

    @Test func fiveTopicsAreTheMost() throws {
        let five = try FCMCondition(parsing: "'a' in topics && 'b' in topics && 'c' in topics && 'd' in topics && 'e' in topics")
        #expect(five.topics.count == 5)
    }

    @Test func topicNames() {
        #expect(FCMCondition.isTopicName("news-sport_1.x~%20"))
        #expect(!FCMCondition.isTopicName(""))
        #expect(!FCMCondition.isTopicName("a/b"))
        #expect(!FCMCondition.isTopicName("天气"))
    }
}
