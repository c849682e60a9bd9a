import Dispatch

/// Waits for `group` for as long as the work behind it keeps moving, and returns whether the group finished.
///
/// A fixed real-time limit cannot tell a hang from a crowded machine: under a parallel test run, with the Swift
/// concurrency pool's few threads busy with other suites, a stress test's async hops can queue for a minute or more
/// without anything being wrong. This wait fails only on a stall: `progress()`, a count the work raises as it goes
/// (completions, hops), has not changed for `stallLimit`. As that count is bounded by the work to do, the wait
/// always ends: when the group finishes, or `stallLimit` after the last step of a hung run.
///
/// Call it from a thread of its own (``onOwnThread(_:)``), never from a thread of the cooperative pool.
///
/// - Parameters:
///   - group: The group the work leaves when each piece is done.
///   - stallLimit: How long the work may make no progress before the wait gives up.
///   - checkInterval: How often `progress()` is read.
///   - progress: A count of the steps taken so far, which never decreases.
/// - Returns: `true` when the group finished, `false` when the work stalled first.
public func waitWhileProgressing(
    _ group: DispatchGroup,
    stallLimit: DispatchTimeInterval = .seconds(60),
    checkInterval: DispatchTimeInterval = .seconds(1),
    progress: () -> Int
) -> Bool {
    var lastProgress = progress()
    var stallDeadline = DispatchTime.now() + stallLimit
    while group.wait(timeout: .now() + checkInterval) == .timedOut {
        let currentProgress = progress()
        if currentProgress != lastProgress {
            lastProgress = currentProgress
            stallDeadline = .now() + stallLimit
        } else if DispatchTime.now() >= stallDeadline {
            return false
        }
    }
    return true
}
