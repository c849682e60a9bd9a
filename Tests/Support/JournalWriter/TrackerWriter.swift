import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation

/// `JournalWriter DIRECTORY tracker`: a tracker over DIRECTORY takes a stream of page views and closes, for the
/// tracker's crash test. For each INDEX from 0 it navigates to `page-INDEX` and, when INDEX ends in 9, closes the
/// action INDEX for 5 sessions; after the calls return it prints `INDEX NANOSECONDS KIND` (KIND `page` or
/// `close`, the time CLOCK_MONOTONIC when they returned) and flushes. It stops after 1,000,000; tests kill it
/// sooner.
enum TrackerWriter {
    /// Decides nothing: the test reads only the tracker's own state.
    struct NoDecisions: DecisionSource {
        var isIncremental: Bool { false }
        func decide(_ request: DecisionRequest) async throws -> TrackerResult { TrackerResult() }
    }

    static func run(_ arguments: [String]) -> Never {
        let directory = URL(fileURLWithPath: arguments[1])
        let reporter = Reporter(
            store: MemoryEventStore(),
            delivery: nil,
            scheduler: SystemScheduler.shared,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let tracker = Tracker(
            source: NoDecisions(),
            reporter: reporter,
            directory: directory,
            session: ActionSession(named: "tracker-crash", dispatcher: ActionDispatcher()),
            onError: { fail("\($0)") }
        )
        for index in 0..<1_000_000 {
            do {
                try tracker.navigate(documentName: "page-\(index)")
            } catch {
                fail("\(error)")
            }
            var kind = "page"
            if index % 10 == 9 {
                tracker.reportActionClicked(ActionClicked(actionID: index, status: .close, arg: "5"))
                kind = "close"
            }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            say("\(index) \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)) \(kind)")
        }
        exit(0)
    }
}
