import Dispatch

/// A task executor on a serial dispatch queue of its own, for a test's tasks that must not wait for the cooperative
/// pool.
///
/// In a parallel test run, CPU-bound suites can hold every thread of the cooperative pool for a minute or more
/// (under the thread sanitizer, they have). A test that waits a bounded time for a task on the pool then fails
/// without anything being wrong. A serial queue gets a thread even then: libdispatch starts threads beyond its
/// limit for serial queues, and not for concurrent ones, which on Linux share the pool's limit. Give such a task
/// this executor with `Task(executorPreference:)`; it then starts, and resumes after every suspension, here.
public final class OwnQueueExecutor: TaskExecutor, @unchecked Sendable {
    // Safe: the only stored property is an immutable reference to a DispatchQueue, which is thread-safe but not
    // declared Sendable on every platform.

    /// The serial queue the executor runs jobs on.
    public let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
