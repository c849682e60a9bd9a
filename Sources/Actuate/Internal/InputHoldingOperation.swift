import Synchronization

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
    /// The thread that lends the request its body's run made (``lending(_:while:)``), while the body runs; 0
    /// otherwise.
    @usableFromInline final let lendingThread = Atomic<UInt>(0)
    /// The address of the lent request, on the lending thread's stack; written and read only by that thread
    /// (see ``withLentRequest(_:_:)``), so the exclusivity check is off for it as for `slot`.
    @usableFromInline @exclusivity(unchecked) final var lentRequest: UnsafeMutableRawPointer?

    @inlinable
    init(
        input: Slot.Input,
        header: RequestHeader,
        plugins: UnownedReference<PluginList>,
        notifier: CompletionNotifier?,
        releaseInput: @escaping InputRelease,
        queueMarker: UnownedReference<DispatchQueueMarker>,
        completion: CallerCompletion
    ) {
        self.slot = Slot(holding: input)
        super.init(
            header: header,
            plugins: plugins,
            notifier: notifier,
            releaseInput: releaseInput,
            queueMarker: queueMarker,
            completion: completion
        )
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
    /// loan (the plugins hear the request begin, and the body's context is made from it).
    @inlinable
    final func lending<Request, Prepared, Result>(
        _ request: inout Request,
        preparing prepare: (inout Request) -> Prepared,
        while body: (Prepared) -> Result
    ) -> Result {
        withUnsafeMutablePointer(to: &request) { pointer in
            let prepared = prepare(&pointer.pointee)
            lentRequest = UnsafeMutableRawPointer(pointer)
            lendingThread.store(CurrentThread.id, ordering: .relaxed)
            defer {
                lendingThread.store(0, ordering: .relaxed)
                lentRequest = nil
            }
            return body(prepared)
        }
    }

    /// Calls `body` with the request lent by ``lending(_:while:)``, when this thread lent it and so is inside the
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
