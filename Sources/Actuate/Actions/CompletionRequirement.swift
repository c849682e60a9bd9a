import Synchronization

/// What an action's body returns to say how it will complete.
///
/// Return ``CompletionRequirement/completedSync(_:)`` when the body finished before returning, or the
/// ``CompletionRequirement/DeferredStatus`` from ``CompletionRequirement/willCompleteAsync()`` when it will
/// finish later.
public class CompletionStatus: @unchecked Sendable {
    // Safe: immutable after init; subclasses add only thread-safe state.

    /// The requirement a deferred status belongs to; nil for the shared synchronous status.
    @usableFromInline let requirementID: ObjectIdentifier?

    /// Whether the action will complete later, through a ``CompletionRequirement/DeferredStatus``.
    public var isCompletingAsync: Bool { false }

    /// The status every synchronous completion returns.
    @usableFromInline static let completedSynchronously = CompletionStatus(requirementID: nil)

    init(requirementID: ObjectIdentifier?) {
        self.requirementID = requirementID
    }
}

/// The requirement that an action says, exactly once, how it ended.
///
/// The dispatcher passes one to every action body. The body either completes it before returning:
///
/// <!-- readme: in final class RefreshAction: Action -->
/// ```swift
/// static func perform(context: ActionContext<NoInput>, presenter: NoPresenter, completion: Completion)
///     -> Completion.Status {
///     return completion.completedSync(.success)
/// }
/// ```
///
/// or promises to complete it later:
///
/// <!-- readme: in final class SaveDraftAction: Action -->
/// ```swift
/// static func perform(context: ActionContext<String>, presenter: NoPresenter, completion: Completion)
///     -> Completion.Status {
///     let status = completion.willCompleteAsync()
///     DispatchQueue.global().async { status.completed(.success) }  // once the work has finished
///     return status
/// }
/// ```
///
/// Completing twice, or returning a status that belongs to another requirement, is reported through the
/// dispatcher's ``ActuateDiagnostics``; the caller's completion still runs exactly once. The requirement
/// releases everything it holds as soon as it completes, so no retain cycle outlives an async completion.
public class CompletionRequirement<T: Sendable>: @unchecked Sendable {
    // Safe: `handler` is written only in init and read and cleared only by the one caller that wins the
    // `completed` compare-and-exchange; every other field is immutable.

    /// The status a body returns.
    public typealias Status = CompletionStatus

    /// A promise to complete later. Call ``completed(_:)`` exactly once.
    public final class DeferredStatus: CompletionStatus, @unchecked Sendable {
        // Safe: holds only an immutable reference to a thread-safe requirement.
        let requirement: CompletionRequirement<T>

        init(requirement: CompletionRequirement<T>) {
            self.requirement = requirement
            super.init(requirementID: ObjectIdentifier(requirement))
        }

        override public var isCompletingAsync: Bool { true }

        /// Completes the action with `result`.
        ///
        /// Calling it a second time reports a diagnostic and has no other effect.
        public func completed(_ result: T) {
            requirement.complete(with: result, asynchronously: true)
        }
    }

    private let completed = Atomic<Bool>(false)
    /// The handler of a requirement made with ``init(completionHandler:)``; nil for the dispatcher's own
    /// requirements, which complete through ``didComplete(with:asynchronously:)`` and so read no lock.
    private let handler: HandlerSlot?

    /// Creates a requirement that calls `completionHandler` once, with the result and whether the action
    /// completed asynchronously. Use it to call an action's body directly in a test.
    public init(completionHandler: @escaping @Sendable (T, _ completedAsync: Bool) -> Void) {
        self.handler = HandlerSlot(completionHandler)
    }

    @usableFromInline
    init() {
        self.handler = nil
    }

    /// Completes the requirement now, from inside the body.
    ///
    /// - Parameter result: How the action ended.
    /// - Returns: The status for the body to return.
    public func completedSync(_ result: T) -> Status {
        complete(with: result, asynchronously: false)
        return CompletionStatus.completedSynchronously
    }

    /// Promises that the action will complete later.
    ///
    /// - Returns: The status for the body to return, and to call ``DeferredStatus/completed(_:)`` on later.
    public func willCompleteAsync() -> DeferredStatus {
        DeferredStatus(requirement: self)
    }

    /// Whether the requirement has been completed.
    @usableFromInline package var isCompleted: Bool {
        completed.load(ordering: .acquiring)
    }

    @usableFromInline
    func complete(with result: T, asynchronously: Bool) {
        let (won, _) = completed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        guard won else {
            didCompleteAgain(with: result)
            return
        }
        if let handler, let completionHandler = handler.take() {
            completionHandler(result, asynchronously)
        } else {
            didComplete(with: result, asynchronously: asynchronously)
        }
    }

    /// Called once, by the dispatcher's subclass, when the requirement completes.
    @usableFromInline
    func didComplete(with result: T, asynchronously: Bool) {}

    /// Called for every completion after the first.
    @usableFromInline
    func didCompleteAgain(with result: T) {}

    /// Holds a completion handler until the one completion takes it, so that what it captures is released then.
    private final class HandlerSlot: Sendable {
        private let handler: Mutex<(@Sendable (T, Bool) -> Void)?>

        init(_ handler: @escaping @Sendable (T, Bool) -> Void) {
            self.handler = Mutex(handler)
        }

        /// The handler, the first time; nil afterwards.
        func take() -> (@Sendable (T, Bool) -> Void)? {
            handler.withLock { handler in
                defer { handler = nil }
                return handler
            }
        }
    }
}
