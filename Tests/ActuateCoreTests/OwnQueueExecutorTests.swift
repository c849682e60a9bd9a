import ActuateTestSupport
import Dispatch
import Testing

@Suite("A test task's own queue executor")
struct OwnQueueExecutorTests {
    @Test("a task that prefers the executor starts on its queue, and resumes there after each suspension")
    func taskRunsOnTheExecutorsQueue() async {
        let executor = OwnQueueExecutor(label: "actuate.tests.own-queue-executor")
        let key = DispatchSpecificKey<String>()
        executor.queue.setSpecific(key: key, value: "own queue")
        let seen = await Task(executorPreference: executor) { () -> [String?] in
            var seen = [DispatchQueue.getSpecific(key: key)]
            for _ in 0..<3 {
                await Task.yield()
                seen.append(DispatchQueue.getSpecific(key: key))
            }
            return seen
        }.value
        #expect(seen == Array(repeating: "own queue", count: 4))
        // The test's own task, on the cooperative pool, is not on that queue.
        #expect(DispatchQueue.getSpecific(key: key) == nil)
    }
}
