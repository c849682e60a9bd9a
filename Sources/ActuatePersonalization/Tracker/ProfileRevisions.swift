import Synchronization

/// Numbers that stand for the contents of a ``VisitorProfile``'s lists and user data, so that a decision source
/// can keep what it derived from a list for as long as the list stays the same.
///
/// Each number changes, to one never used before in the process, whenever what it stands for changes; a copy of
/// a profile keeps its numbers with its contents. So two profiles with the same number for a list have the same
/// list, whichever visitors they belong to. A new or decoded profile starts with a fresh number. Equal profiles
/// may have different numbers: equality and hashing ignore them, and they are never saved.
struct ProfileRevisions: Sendable, Hashable {
    /// One item added to or taken out of one list, which took the list from revision `before` to `after`.
    struct ListChange: Sendable {
        /// The list, in ``ProfileList`` order.
        var list: Int
        var before: UInt64
        var after: UInt64
        var item: String
        var added: Bool
    }

    private static let counter = Atomic<UInt64>(0)

    /// One per list, in ``ProfileList`` order.
    var lists: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// The user data's.
    var userData: UInt64
    /// The last change ``VisitorProfile/apply(_:)`` made to a list.
    var lastChange: ListChange?

    init() {
        let fresh = Self.next()
        lists = (fresh, fresh, fresh, fresh, fresh, fresh, fresh, fresh)
        userData = fresh
    }

    /// A number never returned before in this process.
    static func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The number of the list at `index` in ``ProfileList`` order.
    func list(_ index: Int) -> UInt64 {
        switch index {
        case 0: lists.0
        case 1: lists.1
        case 2: lists.2
        case 3: lists.3
        case 4: lists.4
        case 5: lists.5
        case 6: lists.6
        default: lists.7
        }
    }

    /// Always true: revisions are not part of a profile's value.
    static func == (_: ProfileRevisions, _: ProfileRevisions) -> Bool {
        true
    }

    /// Adds nothing: revisions are not part of a profile's value.
    func hash(into _: inout Hasher) {}
}
