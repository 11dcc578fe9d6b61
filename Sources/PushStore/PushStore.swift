// TEMPORARY interface stub so PushServer compiles until the store branch lands.
import Foundation
import PushCore

public struct StoreError: Error, CustomStringConvertible { public var description: String }

public final class Store {
    public init(path: String) throws { throw StoreError(description: "stub") }
    private init() {}
    public static func inMemory() throws -> Store { throw StoreError(description: "stub") }
    public func begin() throws {}
    public func commit() throws {}
    public func rollback() throws {}
    public func apply(_ change: StoreChange) throws {}
    public func loadInbox(bannerSeconds: Double) throws -> Inbox { Inbox() }
    public func messages(ids: [Int64]) throws -> [Message] { [] }
    public func page(_ query: ListQuery) throws -> [Message] { [] }
    public func close() {}
}
