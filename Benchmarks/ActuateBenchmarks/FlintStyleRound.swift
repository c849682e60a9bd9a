import Dispatch

/// Times a ``FlintStyleDispatcher`` steadily enough for a ratio against it to mean something.
///
/// Its cost swings with the state of its observer queue: whether that queue's worker thread is running or has to
/// be woken, and whether the other core is free to run it. So each round first warms the queues with a batch
/// whose observers are drained, then times the round in ``chunks`` chunks, each ending once its observers have
/// run, and reports the median chunk: a chunk that lost its core to another process does not set the round.
enum FlintStyleRound {
    /// The chunks a round is timed in.
    static let chunks = 5
    /// Dispatches in the warm-up batch before each round.
    static let warmUpDispatches = 1_000

    /// Nanoseconds per dispatch of `perform`, run `iterations` times on the action queue after a warm-up.
    static func nanosecondsPerDispatch(
        _ dispatcher: FlintStyleDispatcher,
        iterations: Int,
        context: BenchmarkContext,
        perform: () -> Void
    ) -> Double {
        let perChunk = max(1, iterations / chunks)
        return BenchmarkQueues.action.sync {
            for _ in 0..<warmUpDispatches { perform() }
            dispatcher.drainObservers()
            let times = (0..<chunks).map { _ in
                context.seconds {
                    for _ in 0..<perChunk { perform() }
                    dispatcher.drainObservers()
                } * 1e9 / Double(perChunk)
            }
            return Measurement(label: "chunks", unit: "ns/op", samples: times).median
        }
    }
}
