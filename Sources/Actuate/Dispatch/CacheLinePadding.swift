/// 64 bytes of nothing: stored between the fields of a class, it keeps a field that one thread writes off the
/// cache line of the fields other threads read or write, so that those threads do not take the line from each
/// other's cores.
@usableFromInline
struct CacheLinePadding: Sendable {
    private let bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    @usableFromInline init() {}
}
