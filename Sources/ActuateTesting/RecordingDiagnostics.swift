import Actuate
import Synchronization

/// An `ActuateDiagnostics` handler that records every diagnostic, for tests to inspect.
///
/// ```swift
/// let diagnostics = RecordingDiagnostics()
/// let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: diagnostics)
/// let session = ActionSession(named: "test", dispatcher: dispatcher)
/// await session.perform(LegacyFeature.sync)          // an action that completes twice
/// #expect(diagnostics.kinds == [.completedTwice])
/// ```
public final class RecordingDiagnostics: ActuateDiagnostics {
    private let recorded = Mutex<[ActuateDiagnostic]>([])

    /// Creates an empty recorder.
    public init() {}

    public func report(_ diagnostic: ActuateDiagnostic) {
        recorded.withLock { $0.append(diagnostic) }
    }

    /// Every diagnostic reported so far, in order.
    public var diagnostics: [ActuateDiagnostic] { recorded.withLock { $0 } }

    /// The kinds of every diagnostic reported so far, in order.
    public var kinds: [ActuateDiagnostic.Kind] { diagnostics.map(\.kind) }

    /// Forgets what was recorded.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}
