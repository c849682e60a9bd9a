import Foundation

/// An event id as the journal's index keys it: its 16 bytes as two words, so that hashing takes two word-sized
/// combines instead of the byte-wise path `UUID`'s own hashing goes through, which made the index the largest
/// cost of opening a store after the checksums.
struct JournalEventKey: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    init(_ id: UUID) {
        (high, low) = withUnsafeBytes(of: id.uuid) { raw in
            (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            )
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }
}
