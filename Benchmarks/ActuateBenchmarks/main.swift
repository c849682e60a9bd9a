import Actuate
import Dispatch
import Foundation
import Synchronization

@inline(never) func blackHole<T>(_ value: T) {}

func measure(_ name: String, iterations: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
    print(String(format: "%-40@ %10.1f ns/op", name as NSString, ns))
    return ns
}

let n = ProcessInfo.processInfo.environment["BENCH_N"].flatMap(Int.init) ?? 1_000_000
let session0 = ActionSession(named: "bench", dispatcher: ActionDispatcher(scheduler: SystemScheduler.shared))
let dispatcherT = ActionDispatcher(scheduler: SystemScheduler.shared)
dispatcherT.add(observer: Timeline(maxEntries: 1000))
let sessionT = ActionSession(named: "bench", dispatcher: dispatcherT)
let counter = Atomic<Int>(0)
let closure: @Sendable (ActionOutcome) -> Void = { _ in counter.add(1, ordering: .relaxed) }
let work: @Sendable () -> ActionOutcome = { .success }
for _ in 0..<(ProcessInfo.processInfo.environment["BENCH_ROUNDS"].flatMap(Int.init) ?? 3) {
    BenchmarkQueues.action.sync {
        _ = measure("closure", iterations: n) { for _ in 0..<n { closure(work()) } }
        _ = measure("dispatch.sync no plugins", iterations: n) { for _ in 0..<n { session0.perform(BenchmarkFeature.trivial, completion: closure) } }
        _ = measure("dispatch.sync timeline", iterations: n) { for _ in 0..<n { sessionT.perform(BenchmarkFeature.trivial, completion: closure) } }
    }
}
