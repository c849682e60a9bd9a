/// Tells whether two strings are the very same value, bit for bit, without comparing their characters.
///
/// The plugins' room for unsafe code (see `OWNERSHIP.md`): it reads the bytes of two `String` values in place.
enum StringIdentity {
    /// Whether `first` and `second` are represented by the same bits: then they are the same string, and keeping
    /// one in place of the other changes nothing. False whenever in doubt (a different layout of `String`).
    @inline(__always)
    static func isSameRepresentation(_ first: borrowing String, _ second: borrowing String) -> Bool {
        guard MemoryLayout<String>.size == 2 * MemoryLayout<UInt64>.size else { return false }
        return withUnsafeBytes(of: first) { first in
            withUnsafeBytes(of: second) { second in
                first.loadUnaligned(as: UInt64.self) == second.loadUnaligned(as: UInt64.self)
                    && first.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        == second.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            }
        }
    }
}
