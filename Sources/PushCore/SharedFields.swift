/// The stored fields of a value type kept once, in a box its copies share (`Message`, `Push`):
/// copying the value is one retain where copying the fields was one for each string. The owner
/// writes only through a `_modify` that first replaces the box by a copy when another value
/// still shares it (`isKnownUniquelyReferenced`), so the owner is a value like any struct.
@usableFromInline
final class SharedFields<Fields: Sendable & Equatable>: @unchecked Sendable {
    // Mutated only by the owner's `_modify`, after making it unique: never while shared, so no
    // two accesses to one box's fields overlap. Unchecked: the runtime check each access paid
    // (a thread-local lookup) was 2 % of a socket push's instructions, five accesses a push.
    @usableFromInline @exclusivity(unchecked) var fields: Fields
    @usableFromInline init(_ fields: Fields) { self.fields = fields }

    /// Makes `box` the only reference to its fields, so that they can be written in place: a
    /// copy of them first when another value still shares the box.
    @inlinable static func unshare(_ box: inout SharedFields) {
        if !isKnownUniquelyReferenced(&box) { box = SharedFields(box.fields) }
    }

    /// Equal fields, without comparing them when both share one box.
    @inlinable static func same(_ left: SharedFields, _ right: SharedFields) -> Bool {
        left === right || left.fields == right.fields
    }
}
