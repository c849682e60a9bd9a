import Actuate
import Synchronization
import Testing

/// The dependency keys a harness's actions read without the test setting them: recorded where the body reads
/// them (any thread), and reported as test failures from the test's own task.
final class UnsetDependencies: Sendable {
    private let keyNames = Mutex<[String]>([])

    /// What the harness's dependency values call with the name of a key read but not set.
    var handler: @Sendable (String) -> Void {
        { [weak self] name in self?.keyNames.withLock { $0.append(name) } }
    }

    /// Fails the test once for each key read but not set since the last report.
    func report(at sourceLocation: SourceLocation) {
        let names = keyNames.withLock { names in
            defer { names = [] }
            return names
        }
        for name in names {
            Issue.record(
                """
                An action read the dependency '\(name)', which this test did not set, and the key has no \
                `testValue`: it was not given the live value. Set it with \
                `harness.dependencies[\(name).self] = ...`, or give the key a `testValue`.
                """,
                sourceLocation: sourceLocation
            )
        }
    }
}
