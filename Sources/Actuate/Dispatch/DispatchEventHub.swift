import Synchronization

/// The one plugin that feeds every live stream of ``ActionDispatcher/events(bufferingPolicy:)`` of a dispatcher.
///
/// The dispatcher adds it once, on the first call to `events()`; streams then come and go inside the hub, so a
/// stream never publishes a new plugin list (each of which costs a lock and a look at every thread's dispatch
/// sequence). While no stream is live, each begin and completion costs one atomic load.
///
/// Each stream hears an action's begin and its completion, or neither: a stream hears every action that begins
/// after it was created, and the completion of each action whose begin it heard. Events are yielded under the
/// hub's lock, so every stream receives them in the same order. An ended stream's continuation is released at
/// once; when the last stream ends, the hub forgets every action it was waiting to hear complete.
final class DispatchEventHub: ActionDispatchPlugin {
    private struct State {
        /// The live streams, by subscription number.
        var streams: [Int: AsyncStream<ActionDispatchEvent>.Continuation] = [:]
        /// The number of the next stream; numbers only grow.
        var nextNumber = 0
        /// For each action whose begin was streamed and whose completion was not yet: the number of the first
        /// stream created after its begin, which must not hear its completion.
        var begun: [UInt64: Int] = [:]
    }

    private let state = Mutex(State())
    /// `state.streams.count`, read without the lock before a begin.
    private let streamCount = Atomic<Int>(0)
    /// `state.begun.count`, read without the lock before a completion.
    private let begunCount = Atomic<Int>(0)

    /// Streams events once the recorders have recorded them: ``PluginStage/after``.
    var stage: PluginStage { .after }

    /// The number of live streams.
    var liveStreamCount: Int { streamCount.load(ordering: .relaxed) }

    /// The number of actions whose begin was streamed and whose completion is still awaited.
    var awaitedCompletionCount: Int { begunCount.load(ordering: .relaxed) }

    /// Starts feeding `continuation`; returns the number that ``removeStream(_:)`` takes.
    func addStream(_ continuation: AsyncStream<ActionDispatchEvent>.Continuation) -> Int {
        state.withLock { state in
            let number = state.nextNumber
            state.nextNumber += 1
            state.streams[number] = continuation
            streamCount.store(state.streams.count, ordering: .relaxed)
            return number
        }
    }

    /// Stops feeding the stream `number` and releases its continuation.
    func removeStream(_ number: Int) {
        let removed = state.withLock { state in
            let removed = state.streams.removeValue(forKey: number)
            streamCount.store(state.streams.count, ordering: .relaxed)
            if state.streams.isEmpty {
                state.begun.removeAll()
                begunCount.store(0, ordering: .relaxed)
            }
            return removed
        }
        // Released here, outside the lock.
        _ = removed
    }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard streamCount.load(ordering: .relaxed) > 0 else { return }
        state.withLock { state in
            guard !state.streams.isEmpty else { return }
            state.begun[request.uniqueID] = state.nextNumber
            begunCount.store(state.begun.count, ordering: .relaxed)
            let event = ActionDispatchEvent.began(request.summary)
            for continuation in state.streams.values { continuation.yield(event) }
        }
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        // The begin's store happens before this load, so it reads that store or a later one, and a later zero
        // means the begin was forgotten.
        guard begunCount.load(ordering: .relaxed) > 0 else { return }
        state.withLock { state in
            guard let firstLater = state.begun.removeValue(forKey: request.uniqueID) else { return }
            begunCount.store(state.begun.count, ordering: .relaxed)
            let event = ActionDispatchEvent.completed(request.summary, outcome: outcome)
            for (number, continuation) in state.streams where number < firstLater { continuation.yield(event) }
        }
    }
}

extension ActionDispatcher {
    /// The dispatcher's event hub, created and added as a plugin on first use.
    var eventHub: DispatchEventHub {
        eventHubSlot.withLock { slot in
            if let hub = slot { return hub }
            let hub = DispatchEventHub()
            add(plugin: hub)
            slot = hub
            return hub
        }
    }

    /// The number of live streams of ``events(bufferingPolicy:)``, for tests.
    var liveEventStreamCount: Int { eventHubSlot.withLock { $0?.liveStreamCount ?? 0 } }

    /// The number of actions whose completion an event stream still awaits, for tests.
    var eventStreamRequestsInFlight: Int { eventHubSlot.withLock { $0?.awaitedCompletionCount ?? 0 } }
}
