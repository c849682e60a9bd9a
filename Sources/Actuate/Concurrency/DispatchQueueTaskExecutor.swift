import Dispatch

/// A task executor that runs jobs on a dispatch queue, so that an async action body starts, and resumes after
/// every suspension, on its action's queue.
@usableFromInline
final class DispatchQueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    // Safe: the only stored property is an immutable reference to a thread-safe DispatchQueue, which is not
    // declared Sendable on every platform.
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    @usableFromInline
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
