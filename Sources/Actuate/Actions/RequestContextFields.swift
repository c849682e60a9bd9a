/// What an action's body sees of its request besides the input: the fields of ``ActionContext``, stored as one
/// value in the request's ``RequestHeader``.
///
/// Kept together so that a dispatch lends them to the body's context in one piece: the context the body receives
/// is made from a bitwise copy of the header's fields, which counts no reference and is never destroyed (see
/// `RequestOperation.withLentContext(_:)`), instead of a copy that retains the session name, the loggers, the
/// cancellation state and the dependency values, and releases them when the body returns.
@usableFromInline
struct RequestContextFields: Sendable {
    /// Where the request came from.
    @usableFromInline let source: ActionSource
    /// The name of the session the request runs in.
    @usableFromInline let sessionName: String
    /// Whether the user asked for this directly.
    @usableFromInline let userInitiated: Bool
    /// The request's loggers, or nil for disabled loggers: the dispatch path then retains no shared
    /// `ActionLogs.disabled` instance.
    @usableFromInline let logs: ActionLogs?
    /// The request's cancellation state, or nil for a perform that cannot be cancelled.
    @usableFromInline let cancellation: ActionCancellation?
    /// The request's dependency values, or nil when its dispatcher has none set: every key then reads its live
    /// value.
    @usableFromInline let dependencies: DependencyStore?

    @inlinable
    init(
        source: ActionSource,
        sessionName: String,
        userInitiated: Bool,
        logs: ActionLogs?,
        cancellation: ActionCancellation?,
        dependencies: DependencyStore?
    ) {
        self.source = source
        self.sessionName = sessionName
        self.userInitiated = userInitiated
        self.logs = logs
        self.cancellation = cancellation
        self.dependencies = dependencies
    }
}
