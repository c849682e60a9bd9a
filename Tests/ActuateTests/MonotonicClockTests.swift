import Dispatch
import Testing

@testable import ActuateCore

@Suite("Monotonic clock")
struct MonotonicClockTests {
    @Test("its readings, and the system scheduler's, are on Dispatch's clock")
    func readsDispatchClock() {
        let before = DispatchTime.now().uptimeNanoseconds
        let reading = MonotonicClock.nanoseconds
        let between = DispatchTime.now().uptimeNanoseconds
        let scheduled = SystemScheduler.shared.uptimeNanoseconds()
        let after = DispatchTime.now().uptimeNanoseconds
        #expect(before <= reading && reading <= between)
        #expect(between <= scheduled && scheduled <= after)
    }
}
