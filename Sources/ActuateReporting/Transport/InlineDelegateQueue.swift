#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The delegate queue of an ``OutgoingHTTPClient``'s session on Linux, when libcurl cannot be loaded directly and the
/// client falls back to FoundationNetworking's `URLSession`: it runs each delegate call at once, on the
/// thread that makes it, instead of queueing it.
///
/// FoundationNetworking hands every piece of a response to the delegate queue as an operation, from the thread on
/// which libcurl decodes the response, and never waits for the queue. When libcurl inflates a compressed answer
/// faster than a queue runs operations (a 64 KB zstd answer can inflate to 2 GiB in one read), the pieces pile up
/// in the queue: the response's whole decoded size, in memory, before the client's limit can cancel the request.
/// Run inline, each piece reaches ``OutgoingRequestDelegate`` while libcurl makes it, which keeps it under the limit
/// or drops it: the memory a response takes is bounded by the limit, whatever its encoding.
///
/// The delegate it serves must never wait on the session from a delegate call: it cancels a task and calls its
/// caller's completion from another queue (a task's `cancel()` waits for the queue the call runs on).
// @unchecked: OperationQueue is thread-safe; this subclass adds no state.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }

    override func addOperation(_ operation: Operation) {
        operation.start()
    }

    override func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool) {
        for operation in operations { operation.start() }
    }
}
#endif
