import Foundation
import PushCore
import PushStore
import Testing
import TestSupport

/// Every `StoreChange` case, written and read back, on a file and on `:memory:`.
@Suite struct StoreChangeTests {
    @Test(arguments: StoreKind.allCases)
    func insertKeepsEveryField(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        let full = Samples.message(1, channel: .transparent, offline: true)
        let sparse = Message(
            id: 2, app: "default", channel: .apns, receivedAt: Date(millisecondsSince1970: 5), payload: "{}")
        try store.write([.insert(full), .insert(sparse)])

        #expect(try store.message(id: 1) == full)
        #expect(try store.message(id: 2) == sparse)
        #expect(try store.message(id: 3) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func heldMessagesAreStoredButNotListed(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        let held = Samples.message(1, channel: .transparent, held: true)
        try store.write([.insert(held), .insert(Samples.message(2))])

        #expect(try store.message(id: 1) == nil)
        #expect(try store.message(id: 1, includeHeld: true) == held)
        #expect(try store.page(ListQuery()).map(\.id) == [2])
        #expect(try store.count() == 1)
        #expect(try store.loadInbox().held == [held])
    }

    @Test(arguments: StoreKind.allCases)
    func markReadReadsOnlyThoseIds(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write((1...4).map { .insert(Samples.message($0)) })
        try store.write([.markRead([2, 4, 99])])

        #expect(try store.messages(ids: [1, 2, 3, 4]).map(\.read) == [false, true, false, true])
        #expect(try store.count(unreadOnly: true) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func markAllReadOfOneAppLeavesTheOthers(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([
            .insert(Samples.message(1, app: "a")), .insert(Samples.message(2, app: "b")),
            .insert(Samples.message(3, app: "a")), .insert(Samples.message(4, app: "c", held: true)),
        ])
        try store.write([.markAllRead(app: "a")])
        #expect(try store.count(unreadOnly: true, app: "a") == 0)
        #expect(try store.count(unreadOnly: true, app: "b") == 1)

        try store.write([.markAllRead(app: nil)])
        #expect(try store.count(unreadOnly: true) == 0)
        // A held message is not delivered yet: "read all" does not reach it.
        #expect(try store.message(id: 4, includeHeld: true)?.read == false)
    }

    @Test(arguments: StoreKind.allCases)
    func deleteRemovesAndNeverReusesTheId(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write((1...3).map { .insert(Samples.message($0)) })
        try store.write([.delete([3, 2])])

        #expect(try store.messages(ids: [1, 2, 3]).map(\.id) == [1])
        #expect(try store.loadInbox().nextId == 4)
        try store.write([.delete([1])])
        #expect(try store.loadInbox().nextId == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func releaseDeliversHeldMessagesAsOffline(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([
            .insert(Samples.message(1, channel: .transparent, held: true)),
            .insert(Samples.message(2, channel: .transparent, held: true)),
        ])
        try store.write([.release([1, 2])])

        let released = try store.messages(ids: [1, 2])
        #expect(released.map(\.held) == [false, false])
        #expect(released.map(\.offline) == [true, true])
        #expect(try store.loadInbox().held == [])
        #expect(try store.count(unreadOnly: true) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func setLaunchMovesTheLaunchFlag(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.insert(Samples.message(1)), .insert(Samples.message(2)), .setLaunch(1)])
        #expect(try store.loadInbox().launchId == 1)

        try store.write([.setLaunch(2)])
        #expect(try store.messages(ids: [1, 2]).map(\.launch) == [false, true])
        #expect(try store.loadInbox().launchId == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func badgeUpsertsPerApp(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.badge(app: "a", Badge(icon: 3, server: 3)), .badge(app: "b", Badge(icon: 1, server: 7))])
        try store.write([.badge(app: "a", Badge(icon: 0, server: 5))])

        #expect(try store.loadInbox().badges == ["a": Badge(icon: 0, server: 5), "b": Badge(icon: 1, server: 7)])
    }

    @Test(arguments: StoreKind.allCases)
    func badgesOfATransactionAreWrittenOncePerAppAtCommit(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.badge(app: "a", Badge(icon: 1, server: 1))])

        try store.begin()
        for icon in 2...50 { try store.apply(.badge(app: "a", Badge(icon: icon, server: icon))) }
        try store.apply(.badge(app: "b", Badge(icon: 0, server: 4)))
        // Within the transaction the store already answers with what was applied.
        #expect(try store.loadInbox().badges == ["a": Badge(icon: 50, server: 50), "b": Badge(icon: 0, server: 4)])
        try store.rollback()
        #expect(try store.loadInbox().badges == ["a": Badge(icon: 1, server: 1)])

        try store.begin()
        try store.apply(.badge(app: "a", Badge(icon: 7, server: 3)))
        try store.apply(.badge(app: "a", Badge(icon: 8, server: 3)))
        try store.commit()
        #expect(try store.loadInbox().badges == ["a": Badge(icon: 8, server: 3)])
        if kind == .file {
            store.close()
            #expect(try kind.open(in: folder).loadInbox().badges == ["a": Badge(icon: 8, server: 3)])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func insertsOneAfterAnotherKeepTheirOwnTexts(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        // Long, short, empty and absent texts in turn: nothing of one insert shows in the next.
        let messages = (1...6).map { id in
            Message(
                id: Int64(id), app: id % 2 == 0 ? "com.example.shop" : "a", channel: .apns,
                title: id % 3 == 0 ? nil : String(repeating: "訂單", count: 7 - id), subtitle: id == 4 ? "" : nil,
                body: String(repeating: "x", count: id * 40), url: id == 5 ? "app://x\u{0}y" : nil,
                receivedAt: Date(millisecondsSince1970: Int64(id)), taskId: id == 2 ? "" : "t\(id)", msgId: nil,
                payload: "{\"n\":\(id)}")
        }
        try store.write(messages.map(StoreChange.insert))
        #expect(try store.messages(ids: messages.map(\.id)).sorted { $0.id < $1.id } == messages)
    }

    @Test(arguments: StoreKind.allCases)
    func settingsRoundTrip(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        #expect(try store.loadInbox().settings == InboxSettings())

        for settings in [
            InboxSettings(mode: .off, appState: .terminated, dropped: 12, badgeSync: false),
            InboxSettings(mode: .on, appState: .background, dropped: 0, badgeSync: true),
        ] {
            try store.write([.settings(settings)])
            #expect(try store.loadInbox().settings == settings)
        }
    }

    @Test("badge policies, mute and quiet hours round-trip", arguments: StoreKind.allCases)
    func fidelitySettingsRoundTrip(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        let settings = InboxSettings(
            badgePolicies: ["a": .platform], muted: ["a": Date?.none, "b": Date(millisecondsSince1970: 1_764_500_000_000)],
            quiet: QuietHours(start: 22 * 60, end: 7 * 60))
        try store.write([.settings(settings)])
        #expect(try store.loadInbox().settings == settings)
        try store.write([.settings(InboxSettings())])
        #expect(try store.loadInbox().settings == InboxSettings())
    }

    @Test("a collapse-id replacement writes over the row, read state included", arguments: StoreKind.allCases)
    func replaceWritesOverTheRowAndKeepsUnreadRight(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        var first = Samples.message(1)
        first.collapseId = "c"
        try store.write([.insert(first), .insert(Samples.message(2))])
        #expect(try store.replaceable(app: first.app, collapseId: "c")?.id == 1)
        #expect(try store.count(unreadOnly: true) == 2)

        var silent = first
        silent.body = "silent now"
        silent.silent = true
        silent.read = true
        try store.write([.replace(silent)])
        #expect(try store.message(id: 1) == silent)
        #expect(try store.count(unreadOnly: true) == 1)

        var again = silent
        again.silent = false
        again.read = false
        again.threadId = "t"
        again.interruption = "time-sensitive"
        try store.write([.replace(again)])
        #expect(try store.message(id: 1) == again)
        #expect(try store.count(unreadOnly: true) == 2)
        #expect(try store.page(ListQuery()).map(\.id) == [2, 1])
    }

    @Test("an expired held message is listed read and expired", arguments: StoreKind.allCases)
    func expireListsAHeldMessageAsExpired(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write([.insert(Samples.message(1, channel: .transparent, held: true))])
        try store.write([.expire([1])])
        let expired = try #require(try store.message(id: 1))
        #expect(expired.expired && expired.read && !expired.held)
        #expect(try store.loadInbox().held.isEmpty)
        #expect(try store.count(unreadOnly: true) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func lookupsKeepTheAskedOrderAcrossChunks(kind: StoreKind) throws {
        let folder = TempFolder()
        let store = try kind.open(in: folder)
        try store.write((1...300).map { .insert(Samples.message($0)) })

        // More ids than one statement takes, out of order, with repeats and unknown ids.
        let asked: [Int64] = (1...300).reversed().map { $0 } + [5, 1000, -1, 7]
        #expect(try store.messages(ids: asked).map(\.id) == (1...300).reversed().map { $0 })
        #expect(try store.messages(ids: []) == [])
    }
}

extension StoreChangeTests {
    @Test func aHeldMessageCannotBeReadBeforeItIsReleased() throws {
        let store = try Store.inMemory()
        try store.write([.insert(Samples.message(1, held: true)), .markRead([1])])
        #expect(try store.message(id: 1, includeHeld: true)?.read == false)
        try store.write([.release([1])])
        #expect(try store.count(unreadOnly: true) == 1)
    }
}
