import ActuateTestSupport
import Dispatch
import Synchronization
import Testing

@Suite("Waiting while work progresses (the stress tests' limit)")
struct ProgressWaitTests {
    @Test("work that stops moving fails the wait once the stall limit has passed")
    func stalledWorkFails() async {
        let group = DispatchGroup()
        group.enter()
        let reads = Mutex(0)
        let finished = await onOwnThread {
            waitWhileProgressing(group, stallLimit: .milliseconds(50), checkInterval: .milliseconds(5)) {
                reads.withLock { $0 += 1 }
                return 7
            }
        }
        group.leave()
        #expect(!finished)
        // The first read and at least one more after the limit: the wait looked before giving up.
        #expect(reads.withLock { $0 } >= 2)
    }

    @Test("work that keeps moving is waited for past the stall limit, until it finishes")
    func progressingWorkIsWaitedFor() async {
        let group = DispatchGroup()
        group.enter()
        let steps = Mutex(0)
        // Each read is one more step; the work finishes after 20 steps, far beyond 1 ms of stall limit at 5 ms a step.
        let finished = await onOwnThread {
            waitWhileProgressing(group, stallLimit: .milliseconds(1), checkInterval: .milliseconds(5)) {
                steps.withLock { steps in
                    steps += 1
                    if steps == 20 { group.leave() }
                    return steps
                }
            }
        }
        #expect(finished)
        #expect(steps.withLock { $0 } >= 20)
    }

    @Test("a group that is already done returns at once")
    func finishedGroupReturns() async {
        let group = DispatchGroup()
        let finished = await onOwnThread {
            waitWhileProgressing(group, stallLimit: .milliseconds(1), checkInterval: .seconds(60)) { 0 }
        }
        #expect(finished)
    }
}
