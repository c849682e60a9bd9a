import Synchronization

/// A plugin's state, kept in shards by action queue, each behind its own lock: actions on independent queues
/// never wait for each other's lock.
///
/// A request's ``RequestHeader/queueIndex`` picks its shard; every request of one queue finds the same shard.
/// Reaching the shard counts no reference and the shards' locks are on separate cache lines, so a plugin pays
/// for one uncontended lock per callback, as with one `Mutex`, without making busy queues share it. A read of
/// the whole state visits the shards in turn with ``mapStates(_:)``.
///
/// <!-- readme: repeats Sources/ActuatePlugins/ActuatePlugins.docc/Plugins.md -->
/// ```swift
/// final class SessionCountingPlugin: ActionDispatchPlugin {
///     private let counts = QueueShardedState<[String: Int]> { [:] }
///
///     func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
///         let header = request.header
///         counts.withState(queueIndex: header.queueIndex) { $0[header.sessionName, default: 0] += 1 }
///     }
///
///     func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
///
///     var total: Int { counts.mapStates { $0.values.reduce(0, +) }.reduce(0, +) }
/// }
/// ```
public final class QueueShardedState<State: Sendable>: Sendable {
    /// The most shards a state may have.
    static var maximumShardCount: Int { 1_024 }

    /// The shards, owned here and reached without counting a reference.
    @usableFromInline let shards: OwnedObjects<QueueStateShard<State>>
    /// `shardCount - 1`: the shard of a queue is its index masked with this.
    @usableFromInline let mask: Int

    /// The number of shards: a power of two.
    public var shardCount: Int { shards.count }

    /// Creates a state of `shardCount` shards, each starting as `makeState()` returns it.
    ///
    /// - Parameters:
    ///   - shardCount: How many shards, 16 by default; rounded up to a power of two, and kept between 1 and
    ///     1,024.
    ///   - makeState: Makes the initial state of one shard; called once per shard, in shard order.
    public init(shardCount: Int = 16, makeState: () -> State) {
        let wanted = min(max(1, shardCount), Self.maximumShardCount)
        var count = 1
        while count < wanted { count <<= 1 }
        self.shards = OwnedObjects((0..<count).map { _ in QueueStateShard(makeState()) })
        self.mask = count - 1
    }

    /// Runs `body` on the state of the shard of `queueIndex`, under that shard's lock.
    ///
    /// - Parameters:
    ///   - queueIndex: The request's ``RequestHeader/queueIndex`` (any integer: it is reduced to a shard).
    ///   - body: Reads or changes the shard's state. It must not call back into this state: the lock is not
    ///     reentrant.
    /// - Returns: What `body` returns.
    @inlinable @inline(__always)
    public func withState<Result: Sendable>(queueIndex: Int, _ body: (inout State) -> Result) -> Result {
        // Lent uncounted: `shards` owns every shard for the life of this object, which the caller holds.
        shards.withObject(at: queueIndex & mask) { shard in
            shard.state.withLock { state in body(&state) }
        }
    }

    /// Runs `body` on the state of every shard in turn, each under its own lock, and returns what it returned,
    /// in shard order.
    ///
    /// The shards are visited one at a time, so the results are a consistent view of each shard, not of all of
    /// them at one instant.
    ///
    /// - Parameter body: Reads or changes one shard's state.
    /// - Returns: What `body` returned for each shard, by shard.
    public func mapStates<Result: Sendable>(_ body: (inout State) -> Result) -> [Result] {
        shards.owned.map { shard in shard.state.withLock { state in body(&state) } }
    }
}

/// One shard of a ``QueueShardedState``: its lock and state, padded so that the next shard's lock is on another
/// cache line.
@usableFromInline
final class QueueStateShard<State: Sendable>: Sendable {
    @usableFromInline let state: Mutex<State>
    /// Keeps the next shard's lock off this shard's cache line.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    init(_ state: State) {
        self.state = Mutex(state)
    }
}
