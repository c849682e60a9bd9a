import Foundation

/// Who hears an action's outcome once every plugin has.
@usableFromInline
enum CallerCompletion: Sendable {
    case none
    case simplified(@Sendable (ActionOutcome) -> Void)
    case detailed(@Sendable (ActionPerformOutcome) -> Void)

    @inlinable
    func callAsFunction(_ outcome: ActionPerformOutcome) {
        switch self {
        case .none: break
        case .simplified(let completion): completion(outcome.simplifiedOutcome)
        case .detailed(let completion): completion(outcome)
        }
    }
}

/// One performance of an action: the action's completion requirement, and what must happen when it completes.
///
/// It is deliberately not generic. Everything generic (the request, the presenter) lives in closures built by
/// the specialized dispatch code, so that creating and destroying an operation never looks up generic
/// metadata at run time.
@usableFromInline
final class DispatchOperation: CompletionRequirement<ActionPerformOutcome>, @unchecked Sendable {
    // Safe: `notifyObservers` is written by the dispatching thread before the body runs,
    // and read (and `notifyObservers` cleared) only by the one thread that wins the requirement's atomic
    // completion, which orders those writes before the reads. Everything else is immutable.

    @usableFromInline let uniqueID: UInt64
    @usableFromInline let startUptimeNanoseconds: UInt64
    @usableFromInline let feature: FeatureMetadata
    @usableFromInline let action: ActionMetadata
    @usableFromInline let sessionName: String
    @usableFromInline let dispatcher: ActionDispatcher
    @usableFromInline let callerCompletion: CallerCompletion
    /// Tells the plugins the outcome, with the clock's monotonic reading at completion.
    @usableFromInline var notifyObservers: (@Sendable (ActionPerformOutcome, UInt64) -> Void)?

    @inlinable
    init(
        uniqueID: UInt64,
        startUptimeNanoseconds: UInt64,
        feature: FeatureMetadata,
        action: ActionMetadata,
        sessionName: String,
        dispatcher: ActionDispatcher,
        completion: CallerCompletion
    ) {
        self.uniqueID = uniqueID
        self.startUptimeNanoseconds = startUptimeNanoseconds
        self.feature = feature
        self.action = action
        self.sessionName = sessionName
        self.dispatcher = dispatcher
        self.callerCompletion = completion
        super.init()
    }

    /// Checks the status a body returned: watches a pending deferred completion, reports a foreign status.
    @inlinable
    func check(_ status: CompletionStatus) {
        if status.requirementID == ObjectIdentifier(self) {
            if !isCompleted { trackUntilCompleted() }
        } else if status !== CompletionStatus.completedSynchronously || !isCompleted {
            reportForeignStatus()
        }
    }

    @inlinable
    override func didComplete(with result: ActionPerformOutcome, asynchronously: Bool) {
        if asynchronously { dispatcher.watchdog.untrack(id: uniqueID) }
        if let notifyObservers {
            self.notifyObservers = nil
            notifyObservers(result, dispatcher.scheduler.uptimeNanoseconds())
        }
        callerCompletion(result)
    }

    @usableFromInline
    func trackUntilCompleted() {
        dispatcher.watchdog.track(
            id: uniqueID,
            start: .nanoseconds(Int64(clamping: startUptimeNanoseconds)),
            summary: neverCompletedDiagnostic()
        )
        if isCompleted { dispatcher.watchdog.untrack(id: uniqueID) }
    }

    @usableFromInline
    func reportForeignStatus() {
        report(
            .foreignCompletionStatus,
            "The body returned a status that does not belong to its own completion requirement. Return the value "
                + "of `completion.completedSync(_:)` or `completion.willCompleteAsync()` from the same `completion`."
        )
        if !isCompleted {
            complete(
                with: .failure(error: ActuateError.foreignCompletionStatus(action: action.name)),
                asynchronously: false
            )
        }
    }

    @usableFromInline
    override func didCompleteAgain(with result: ActionPerformOutcome) {
        report(
            .completedTwice,
            "The completion requirement was completed more than once; the second outcome "
                + "(\(TimelineOutcome(result)))) was ignored. Complete exactly once on every path."
        )
    }

    private func neverCompletedDiagnostic() -> ActuateDiagnostic {
        let seconds = dispatcher.watchdog.timeout.map { String(format: "%g", $0.seconds) } ?? "?"
        return diagnostic(
            .neverCompleted,
            "The action has not completed \(seconds) s after it began. Call `completed(_:)` on the status from "
                + "`willCompleteAsync()` on every path, including errors and cancellation."
        )
    }

    private func report(_ kind: ActuateDiagnostic.Kind, _ message: String) {
        dispatcher.diagnostics.report(diagnostic(kind, message))
    }

    private func diagnostic(_ kind: ActuateDiagnostic.Kind, _ message: String) -> ActuateDiagnostic {
        ActuateDiagnostic(
            kind: kind,
            actionName: action.name,
            featurePath: feature.path,
            sessionName: sessionName,
            message: message,
            requestID: uniqueID
        )
    }
}
