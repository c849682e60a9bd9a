import Foundation
import Synchronization

// The operation chain of one dispatch, in the order a reader meets it: ``CallerCompletion`` (who hears the outcome
// last), ``DispatchOperation`` (the non-generic operation, a `CompletionRequirement` from `Actions/`, which is what
// an action's body completes), ``InputSlot`` and ``RequestOperation`` (the one allocation of a dispatch: the
// operation with its input, and the request it lends to the plugins and the body). The chain lives in `Internal/`,
// the core's one room for unsafe code, because `RequestOperation` holds its input and lends its request without the
// runtime's exclusivity checks (see `OWNERSHIP.md`).

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

/// Tells the plugins of an operation that it completed, with the clock's monotonic reading at completion.
///
/// Built in the dispatch code specialized for one action, and capturing nothing, so that it needs no
/// allocation and the plugins are told from specialized code, without generic metadata lookups.
@usableFromInline
typealias CompletionNotifier = @Sendable (DispatchOperation, ActionPerformOutcome, UInt64) -> Void

/// Releases the input of an operation once it has completed; built, like ``CompletionNotifier``, in the
/// dispatch code specialized for one action, so that releasing the input needs no generic metadata lookup.
@usableFromInline
typealias InputRelease = @Sendable (DispatchOperation) -> Void

/// One performance of an action: the action's completion requirement, and what must happen when it completes.
///
/// The non-generic part of every operation holds the whole request but its input, so that creating and
/// destroying it needs no generic metadata. ``RequestOperation`` adds the input, so that the operation is the
/// one allocation of a dispatch.
@usableFromInline
class DispatchOperation: CompletionRequirement<ActionPerformOutcome>, @unchecked Sendable {
    // Safe: every stored property is immutable after init (`keptPlugins` is set once, atomically); completion is
    // serialised by the requirement's atomic compare-and-exchange.

    /// The request, but its input.
    @usableFromInline let header: RequestHeader
    /// Keeps ``plugins`` alive once this operation outlives the dispatch call that made it; nil until then.
    @usableFromInline let keptPlugins = KeptReference<PluginList>()
    @usableFromInline let callerCompletion: CallerCompletion
    /// Tells the plugins; nil when no plugin hears about this operation, and then no clock is read at completion.
    @usableFromInline let notifier: CompletionNotifier?
    /// Releases the input, after the caller's completion has run.
    @usableFromInline let releaseInput: InputRelease
    /// The plugins of this dispatch, with the dispatcher's watchdog and clock, which the operation reaches through
    /// them: the operation holds no reference to the dispatcher.
    ///
    /// Uncounted while the dispatch call that made this operation runs: the dispatcher keeps a list it replaced
    /// until every thread inside a dispatch call then has left it (``DispatchingThreads``). Before the operation
    /// outlives the call (an asynchronous hop, or a body that kept its completion), the dispatch counts a reference
    /// in ``keptPlugins`` (``keepPlugins()``). So an inline dispatch whose body completes in place counts no
    /// reference to the list, nor to the dispatcher, which every thread that dispatches shares: retaining and
    /// releasing them wrote their reference counts, bouncing their cache lines between the cores of threads that
    /// dispatch at once.
    @usableFromInline let plugins: UnownedReference<PluginList>
    /// The marker of the action's queue, unretained: it is used only while the operation runs on that queue,
    /// and a queue keeps its marker (attached with `setSpecific`) for as long as the queue exists.
    @usableFromInline let queueMarker: UnownedReference<DispatchQueueMarker>

    @inlinable
    init(
        header: RequestHeader,
        plugins: UnownedReference<PluginList>,
        notifier: CompletionNotifier?,
        releaseInput: @escaping InputRelease,
        queueMarker: UnownedReference<DispatchQueueMarker>,
        completion: CallerCompletion
    ) {
        self.header = header
        self.plugins = plugins
        self.notifier = notifier
        self.releaseInput = releaseInput
        self.queueMarker = queueMarker
        self.callerCompletion = completion
        super.init()
    }

    @usableFromInline var uniqueID: UInt64 { header.uniqueID }

    /// The plugin list, lent uncounted: alive while this operation is (see ``plugins``).
    @inlinable
    func withPlugins<Result>(_ body: (PluginList) -> Result) -> Result {
        plugins.withObject(body)
    }

    /// Keeps this operation's plugin list alive for as long as this operation: called by the dispatch, inside the
    /// dispatch call (where the list is alive), before the operation outlives the call. Called at most once.
    @inlinable
    func keepPlugins() {
        keptPlugins.keep(plugins)
    }

    /// Checks the status a body returned: watches a pending deferred completion, reports a foreign status.
    @inlinable
    func check(_ status: CompletionStatus) {
        // Only the shared synchronous status has no requirement (its initializer is internal): testing for it so
        // reads no lazily initialized global.
        if status.requirementID == ObjectIdentifier(self) {
            if !isCompleted { trackUntilCompleted() }
        } else if status.requirementID != nil || !isCompleted {
            reportForeignStatus()
        }
    }

    @inlinable
    override func didComplete(with result: ActionPerformOutcome, asynchronously: Bool) {
        if asynchronously { withPlugins { $0.watchdog.untrack(id: uniqueID) } }
        if let notifier {
            notifier(self, result, withPlugins { $0.uptimeNanoseconds() })
        }
        callerCompletion(result)
        releaseInput(self)
    }

    @usableFromInline
    func trackUntilCompleted() {
        let list = plugins.object
        var start = header.startUptimeNanoseconds
        if start == ActionDispatcher.unreadSystemClock, notifier == nil, list.systemClockEpoch != nil {
            // The dispatch read no clock (no plugin hears it): the watch starts now.
            start = list.uptimeNanoseconds()
        }
        list.watchdog.track(
            id: uniqueID,
            start: .nanoseconds(Int64(clamping: start)),
            action: header.action.object,
            feature: header.feature.object,
            session: header.sessionName
        )
        if isCompleted { list.watchdog.untrack(id: uniqueID) }
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
                with: .failure(
                    error: ActuateError.foreignCompletionStatus(action: header.action.object.name)
                ),
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

    private func report(_ kind: ActuateDiagnostic.Kind, _ message: String) {
        plugins.object.watchdog.diagnostics.report(diagnostic(kind, message))
    }

    private func diagnostic(_ kind: ActuateDiagnostic.Kind, _ message: String) -> ActuateDiagnostic {
        ActuateDiagnostic(
            kind: kind,
            actionName: header.action.object.name,
            featurePath: header.feature.object.path,
            sessionName: header.sessionName,
            message: message,
            requestID: uniqueID
        )
    }
}

/// Where an operation keeps its input until it completes: `Optional<Input>`.
///
/// It is a generic parameter of ``RequestOperation`` rather than spelled `A.InputType?` inside it, so that
/// destroying an operation, which runs in unspecialized code, reads the slot's type from the operation's own
/// metadata; spelled inside, it costs a lookup of `Optional<A.InputType>` in the runtime's metadata cache, about
/// 330 instructions, on every dispatch.
@usableFromInline
protocol InputSlot: SendableMetatype {
    associatedtype Input
    /// A slot holding `input`.
    init(holding input: Input)
    /// The input; nil once released.
    var held: Input? { get }
    /// Releases the input.
    mutating func release()
    /// Moves the input out, leaving the slot empty; nil when it was empty.
    mutating func takeHeld() -> Input?
}

extension Optional: InputSlot {
    @inlinable
    init(holding input: Wrapped) { self = input }

    @inlinable
    var held: Wrapped? { self }

    @inlinable
    mutating func release() { self = nil }

    @inlinable
    mutating func takeHeld() -> Wrapped? { take() }
}

/// The operation of one request of `A` of `F`: the input joins the non-generic rest of the request, so that
/// the plugins are handed the request itself, rebuilt from the two, without a closure or a second allocation.
/// `Slot` is always `A.InputType?` (see ``InputSlot``).
@usableFromInline
final class RequestOperation<F: FeatureDefinition, A: Action, Slot: InputSlot>: DispatchOperation,
    @unchecked Sendable
where Slot.Input == A.InputType {
    // Safe: `slot` and `lentRequest` are accessed as described below (see also `OWNERSHIP.md`); every other stored
    // property is immutable after init.

    /// The input, held until the operation completes.
    ///
    /// It is read (``heldInput``) while the request runs and written once more (``releaseHeldInput()``) by the one
    /// caller that completes the operation, after the last read: the body's run reads it before the body gets the
    /// completion, and the completion notifier before the release; the requirement's atomic compare-and-exchange
    /// picks that one caller. No two accesses can overlap, so the runtime exclusivity check, which would cost two
    /// runtime calls per access, is turned off for this one property.
    @usableFromInline @exclusivity(unchecked) final var slot: Slot
    /// The thread that lends the request its body's run made (``lending(_:preparing:while:)``), while the body runs; 0
    /// otherwise.
    @usableFromInline final let lendingThread = Atomic<UInt>(0)
    /// The address of the lent request, on the lending thread's stack; written and read only by that thread
    /// (see ``withLentRequest(_:_:)``), so the exclusivity check is off for it as for `slot`.
    @usableFromInline @exclusivity(unchecked) final var lentRequest: UnsafeMutableRawPointer?

    @inlinable
    init(
        header: RequestHeader,
        input: A.InputType,
        plugins: UnownedReference<PluginList>,
        queueMarker: UnownedReference<DispatchQueueMarker>,
        completion: CallerCompletion
    ) {
        let hasPlugins = !plugins.withObject { $0.isEmpty }
        self.slot = Slot(holding: input)
        super.init(
            header: header,
            plugins: plugins,
            notifier: hasPlugins ? Self.makeNotifier() : nil,
            releaseInput: Self.makeInputRelease(),
            queueMarker: queueMarker,
            completion: completion
        )
    }

    /// The notifier of operations of this type: it captures nothing.
    @inlinable
    static func makeNotifier() -> CompletionNotifier {
        { operation, outcome, completionUptimeNanoseconds in
            // The operation is always of this type: only its own init installs this notifier.
            let operation = castKnownType(operation, to: RequestOperation<F, A, Slot>.self)
            let plugins = operation.plugins
            let notifiedLent = operation.withLentRequest(ActionRequest<F, A>.self) { request in
                request.completionUptimeNanoseconds = completionUptimeNanoseconds
                plugins.withObject { $0.notifyDidComplete(anyStage: request, outcome: outcome) }
            }
            if !notifiedLent {
                var request = operation.request
                request.completionUptimeNanoseconds = completionUptimeNanoseconds
                plugins.withObject { $0.notifyDidComplete(anyStage: request, outcome: outcome) }
            }
        }
    }

    /// The input release of operations of this type: it captures nothing.
    @inlinable
    static func makeInputRelease() -> InputRelease {
        { operation in
            // The operation is always of this type: only its own init installs this release.
            castKnownType(operation, to: RequestOperation<F, A, Slot>.self).releaseHeldInput()
        }
    }

    /// Calls `body`, the action's body, with the context of this request, lent: made from a bitwise copy of the
    /// header's ``RequestContextFields``, so that making it counts no reference and dropping it releases none (a
    /// counted copy retains the session name, the loggers, the cancellation state and the dependency values, and
    /// its destroy releases them: about 150 instructions per dispatch).
    ///
    /// Safe because the header is immutable and the operation, which the caller holds, keeps it alive while `body`
    /// runs; the input is a counted copy held here until `body` returns, so it outlives the operation's release of
    /// its own, which a body that completes in place triggers before it returns. A body that keeps the context
    /// copies it, which counts its references as any copy does. The lent context is never destroyed: it is moved,
    /// after `body` returns, into memory that is dropped without deinitializing it.
    /// - Precondition: The operation has not completed (the slot holds the input).
    @inlinable
    final func withLentContext<Result>(_ body: (ActionContext<A.InputType>) -> Result) -> Result {
        let input = heldInput!
        return withExtendedLifetime(input) {
            withUnsafeTemporaryAllocation(of: ActionContext<A.InputType>.self, capacity: 1) { contextBuffer in
                withUnsafeTemporaryAllocation(of: RequestContextFields.self, capacity: 1) { fieldsBuffer in
                    withUnsafeTemporaryAllocation(of: A.InputType.self, capacity: 1) { inputBuffer in
                        withUnsafePointer(to: header.contextFields) { fields in
                            UnsafeMutableRawPointer(fieldsBuffer.baseAddress!)
                                .copyMemory(from: fields, byteCount: MemoryLayout<RequestContextFields>.size)
                        }
                        withUnsafePointer(to: input) { input in
                            UnsafeMutableRawPointer(inputBuffer.baseAddress!)
                                .copyMemory(from: input, byteCount: MemoryLayout<A.InputType>.size)
                        }
                        // Moved out of the bitwise copies, which are left uninitialized, so neither is destroyed.
                        let context = ActionContext(
                            input: inputBuffer.baseAddress!.move(),
                            fields: fieldsBuffer.baseAddress!.move()
                        )
                        let result = body(context)
                        // Not deinitialized: every reference in the context is borrowed.
                        contextBuffer.baseAddress!.initialize(to: consume context)
                        return result
                    }
                }
            }
        }
    }

    /// The request, as plugins and the body see it; read only before the operation completes.
    @inlinable
    var request: ActionRequest<F, A> {
        ActionRequest(header: header, input: heldInput!)
    }

    /// The input; nil once released. Read only before the operation completes.
    @inlinable
    final var heldInput: Slot.Input? { slot.held }

    /// Releases the input; called once, by the caller that completed the operation.
    @inlinable
    final func releaseHeldInput() { slot.release() }

    /// Calls `body` with the request `make` builds from bitwise copies of this operation's header and held input:
    /// a request that borrows both from the operation, so that making it counts no reference and dropping it
    /// releases none (a counted copy and its destroy cost about 200 instructions per dispatch a plugin hears).
    ///
    /// Safe because the header is immutable and the operation, which the caller holds, keeps it alive; the input
    /// stays in the slot, alive, until the operation completes, and the borrowed request is read only by the
    /// plugins' begin, the body's context (which makes counted copies) and the completion notifier, which runs
    /// before the input is released (``lending(_:preparing:while:)``). The request is never destroyed: its memory
    /// is dropped after `body` returns, whatever `body` did. `body` must not copy the request out of the pointer
    /// other than by a counted copy (reading it as a value), nor let the pointer escape.
    /// - Precondition: The operation has not completed (the slot holds the input).
    @inlinable
    final func withBorrowedRequest<Request, Result>(
        making make: (consuming RequestHeader, consuming Slot.Input) -> Request,
        _ body: (UnsafeMutablePointer<Request>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: Request.self, capacity: 1) { requestBuffer in
            let request = requestBuffer.baseAddress!
            withUnsafeTemporaryAllocation(of: RequestHeader.self, capacity: 1) { headerBuffer in
                withUnsafeTemporaryAllocation(of: Slot.self, capacity: 1) { slotBuffer in
                    withUnsafePointer(to: header) { header in
                        UnsafeMutableRawPointer(headerBuffer.baseAddress!)
                            .copyMemory(from: header, byteCount: MemoryLayout<RequestHeader>.size)
                    }
                    withUnsafeMutablePointer(to: &slot) { slot in
                        UnsafeMutableRawPointer(slotBuffer.baseAddress!)
                            .copyMemory(from: slot, byteCount: MemoryLayout<Slot>.size)
                    }
                    // Moved out of the bitwise copies, which are left uninitialized (the header) and empty (the
                    // slot), so neither is destroyed.
                    request.initialize(
                        to: make(headerBuffer.baseAddress!.move(), slotBuffer.baseAddress!.pointee.takeHeld()!)
                    )
                }
            }
            // Not deinitialized: every reference in the request is borrowed from this operation.
            return body(request)
        }
    }

    /// Lends `request` to this operation's completion notifier on this thread while `body`, the action's body,
    /// runs: a body that completes before it returns, on this thread, lets the plugins hear the completion on
    /// this request, without a second copy of it. `prepare` runs first, on the request in place, before the
    /// loan (the plugins hear the request begin).
    @inlinable
    final func lending<Request, Result>(
        _ request: inout Request,
        preparing prepare: (inout Request) -> Void,
        while body: () -> Result
    ) -> Result {
        withUnsafeMutablePointer(to: &request) { pointer in
            prepare(&pointer.pointee)
            lentRequest = UnsafeMutableRawPointer(pointer)
            lendingThread.store(CurrentThread.id, ordering: .relaxed)
            defer {
                lendingThread.store(0, ordering: .relaxed)
                lentRequest = nil
            }
            return body()
        }
    }

    /// Calls `body` with the request lent by ``lending(_:preparing:while:)``, when this thread lent it and so is inside the
    /// body's run, further up its stack, where the request is alive and nothing else reads or writes it.
    ///
    /// Any other thread reads only ``lendingThread``, which never holds its own identity, and makes its copy.
    /// - Returns: Whether a lent request was there; `body` was not called otherwise.
    @inlinable
    final func withLentRequest<Request>(_ type: Request.Type, _ body: (inout Request) -> Void) -> Bool {
        guard lendingThread.load(ordering: .relaxed) == CurrentThread.id, let lentRequest else { return false }
        body(&lentRequest.assumingMemoryBound(to: Request.self).pointee)
        return true
    }
}
