import Actuate
import ActuateTesting
import Synchronization
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
    @Test("runs due work in deadline then scheduling order")
    func runsInDeadlineOrder() {
        let scheduler = TestScheduler()
        let order = Mutex<[String]>([])
        scheduler.schedule(after: .seconds(2)) { order.withLock { $0.append("b") } }
        scheduler.schedule(after: .seconds(1)) { order.withLock { $0.append("a") } }
        scheduler.schedule(after: .seconds(2)) { order.withLock { $0.append("c") } }
        scheduler.advance(by: .seconds(1))
        #expect(order.withLock { $0 } == ["a"])
        scheduler.advance(by: .seconds(1))
        #expect(order.withLock { $0 } == ["a", "b", "c"])
        #expect(scheduler.elapsed == .seconds(2))
    }

    @Test("cancelled work never runs")
    func cancelledWorkNeverRuns() {
        let scheduler = TestScheduler()
        let ran = Mutex(false)
        let work = scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
        work.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(ran.withLock { $0 } == false)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("work scheduled by work runs within the same advance when due")
    func nestedScheduling() {
        let scheduler = TestScheduler()
        let fired = Mutex<[Duration]>([])
        scheduler.schedule(after: .seconds(1)) {
            fired.withLock { $0.append(scheduler.uptime()) }
            scheduler.schedule(after: .seconds(1)) { fired.withLock { $0.append(scheduler.uptime()) } }
        }
        scheduler.advance(by: .seconds(3))
        #expect(fired.withLock { $0 } == [.seconds(1), .seconds(2)])
        #expect(scheduler.now() == TestScheduler().now().addingTimeInterval(3))
    }
}
