/// A dispatch operation that holds its request's input until it completes, then releases it.
///
/// The input is read (``heldInput``) while the request runs and written once more (``releaseHeldInput()``) by
/// the one caller that completes the operation, after the last read: the body's run reads it before the body
/// gets the completion, and the completion notifier before the release; the requirement's atomic
/// compare-and-exchange picks that one caller. No two accesses can overlap, so the runtime exclusivity check,
/// which would cost two runtime calls per access, is turned off for this one property (see `OWNERSHIP.md`).
@usableFromInline
class InputHoldingOperation<Slot: InputSlot>: DispatchOperation, @unchecked Sendable {
    // Safe: `slot` is accessed as described above; every other stored property is immutable after init.

    @usableFromInline @exclusivity(unchecked) final var slot: Slot

    @inlinable
    init(
        input: Slot.Input,
        header: RequestHeader,
        plugins: UnownedReference<PluginList>,
        notifier: CompletionNotifier?,
        releaseInput: @escaping InputRelease,
        queueMarker: UnownedReference<DispatchQueueMarker>,
        dispatcher: ActionDispatcher,
        completion: CallerCompletion
    ) {
        self.slot = Slot(holding: input)
        super.init(
            header: header,
            plugins: plugins,
            notifier: notifier,
            releaseInput: releaseInput,
            queueMarker: queueMarker,
            dispatcher: dispatcher,
            completion: completion
        )
    }

    /// The input; nil once released. Read only before the operation completes.
    @inlinable
    final var heldInput: Slot.Input? { slot.held }

    /// Releases the input; called once, by the caller that completed the operation.
    @inlinable
    final func releaseHeldInput() { slot.release() }
}
