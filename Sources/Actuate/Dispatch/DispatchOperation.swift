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
/// The non-generic part of every operation: what diagnostics and the watchdog need. ``RequestOperation`` adds
/// the request and the plugins, so that the operation is the one allocation of a dispatch.
@usableFromInline
class DispatchOperation: CompletionRequirement<ActionPerformOutcome>, @unchecked Sendable {
    // Safe: every stored property is immutable after init; completion is serialised by the requirement's
    // atomic compare-and-exchange.

    @usableFromInline let uniqueID: UInt64
    @usableFromInline let startUptimeNanoseconds: UInt64
    // `unowned(unsafe)` is safe: the metadata comes from `FeatureRegistry.shared`, which keeps it alive for the
    // life of the process.
    @usableFromInline unowned(unsafe) let feature: FeatureMetadata
    @usableFromInline unowned(unsafe) let action: ActionMetadata
    @usableFromInline let sessionName: String
    @usableFromInline let dispatcher: ActionDispatcher
    @usableFromInline let callerCompletion: CallerCompletion
    /// Whether any plugin hears about this operation; without plugins no clock is read at completion.
    @usableFromInline let hasObservers: Bool

    @inlinable
    init(
        uniqueID: UInt64,
        startUptimeNanoseconds: UInt64,
        feature: FeatureMetadata,
        action: ActionMetadata,
        sessionName: String,
        dispatcher: ActionDispatcher,
        hasObservers: Bool,
        completion: CallerCompletion
    ) {
        self.uniqueID = uniqueID
        self.startUptimeNanoseconds = startUptimeNanoseconds
        self.feature = feature
        self.action = action
        self.sessionName = sessionName
        self.dispatcher = dispatcher
        self.hasObservers = hasObservers
        self.callerCompletion = completion
        super.init()
    }

    /// Tells the plugins the outcome, with the clock's monotonic reading at completion.
    @usableFromInline
    func notifyObservers(_ outcome: ActionPerformOutcome, completionUptimeNanoseconds: UInt64) {}

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
        if hasObservers {
            notifyObservers(result, completionUptimeNanoseconds: dispatcher.scheduler.uptimeNanoseconds())
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

/// The operation of one request of `A` of `F`: it holds the request and the plugins that hear about it, and
/// hands the plugins the request itself at completion, without a closure or a second allocation.
@usableFromInline
final class RequestOperation<F: FeatureDefinition, A: Action>: DispatchOperation, @unchecked Sendable {
    // Safe: every stored property is immutable after init; see `DispatchOperation`.

    @usableFromInline let request: ActionRequest<F, A>
    /// The plugins of this dispatch. Held unretained: the dispatcher keeps every list it published alive until
    /// it is deinitialized, and this operation holds the dispatcher.
    @usableFromInline let observers: Unmanaged<ObserverList>
    // `unowned(unsafe)` is safe: the marker is used only while the operation runs on the marker's queue, and a
    // queue keeps its marker (attached with `setSpecific`) for as long as the queue exists.
    @usableFromInline unowned(unsafe) let queueMarker: DispatchQueueMarker

    @inlinable
    init(
        request: ActionRequest<F, A>,
        observers: Unmanaged<ObserverList>,
        hasObservers: Bool,
        queueMarker: DispatchQueueMarker,
        dispatcher: ActionDispatcher,
        completion: CallerCompletion
    ) {
        self.request = request
        self.observers = observers
        self.queueMarker = queueMarker
        super.init(
            uniqueID: request.uniqueID,
            startUptimeNanoseconds: request.startUptimeNanoseconds,
            feature: request.feature,
            action: request.action,
            sessionName: request.sessionName,
            dispatcher: dispatcher,
            hasObservers: hasObservers,
            completion: completion
        )
    }

    @inlinable
    override func notifyObservers(_ outcome: ActionPerformOutcome, completionUptimeNanoseconds: UInt64) {
        var completed = request
        completed.completionReading = completionUptimeNanoseconds
        observers._withUnsafeGuaranteedRef { $0.notifyDidComplete(completed, outcome: outcome) }
    }
}
