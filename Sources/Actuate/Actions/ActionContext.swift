/// Everything an action's body is given about one request to perform it.
public struct ActionContext<Input: Loggable>: Sendable {
    // Fixed-size fields come first, so that plugins reading them need no generic layout at run time.

    /// Where the request came from.
    public let source: ActionSource
    /// The name of the session the action runs in.
    public let session: String
    /// Whether the user asked for this directly, rather than the app doing it on its own.
    public let userInitiated: Bool
    /// The request's loggers, or nil for disabled loggers: the dispatch path then retains no shared
    /// `ActionLogs.disabled` instance.
    @usableFromInline let installedLogs: ActionLogs?
    /// The request's cancellation state, or nil for a perform that cannot be cancelled: the dispatch path then
    /// retains no shared token.
    @usableFromInline let cancellationState: ActionCancellation?
    /// The dependency values of the request, or nil when its dispatcher has none set: every key then reads its
    /// live value, and the dispatch path retains nothing for them.
    @usableFromInline let dependencyStore: DependencyStore?
    /// The input the action was performed with.
    public let input: Input

    /// Creates a context. The dispatcher creates one per request; tests may create their own.
    public init(
        input: Input,
        source: ActionSource = .application,
        session: String = "main",
        userInitiated: Bool = true,
        logs: ActionLogs = .disabled,
        dependencies: DependencyValues = DependencyValues()
    ) {
        self.init(
            input: input,
            source: source,
            session: session,
            userInitiated: userInitiated,
            logs: logs,
            cancellation: nil,
            dependencies: dependencies.isLiveAndEmpty ? nil : DependencyStore(dependencies)
        )
    }

    @inlinable
    init(
        input: Input,
        source: ActionSource,
        session: String,
        userInitiated: Bool,
        logs: ActionLogs?,
        cancellation: ActionCancellation?,
        dependencies: DependencyStore?
    ) {
        self.input = input
        self.source = source
        self.session = session
        self.userInitiated = userInitiated
        self.installedLogs = logs
        self.cancellationState = cancellation
        self.dependencyStore = dependencies
    }

    /// The context of the request that `header` describes, performed with `input`.
    @inlinable
    init(header: RequestHeader, input: Input) {
        self.init(
            input: input,
            source: header.source,
            session: header.sessionName,
            userInitiated: header.userInitiated,
            logs: header.logs,
            cancellation: header.cancellation,
            dependencies: header.dependencies
        )
    }

    /// Loggers for this request, filtered by the focus selection when focus logging is installed.
    public var logs: ActionLogs { installedLogs ?? .disabled }

    /// The value of the dependency `key` for this request: the value set on the harness, system or dispatcher
    /// that performs the action, or the key's live value.
    ///
    /// Actions the body performs, through any session, read the same values.
    ///
    /// <!-- readme: repeats Sources/ActuateTesting/ActuateTesting.docc/DependenciesAndVirtualTime.md -->
    /// ```swift
    /// let server = try context.dependency(NotesServerKey.self)
    /// ```
    /// - Parameter key: The dependency's key.
    /// - Returns: The value.
    /// - Throws: ``DependencyNotSetError`` only in a test harness, when the test did not set the key and it has no
    ///   ``DependencyKey/testValue``: the test fails with the key's name instead of reaching the live value.
    public func dependency<Key: DependencyKey>(_ key: Key.Type) throws(DependencyNotSetError) -> Key.Value {
        guard let dependencyStore else { return Key.liveValue }
        return try dependencyStore.values.resolve(key)
    }

    /// Whether the task awaiting this perform has been cancelled.
    ///
    /// `async` bodies also see it as `Task.isCancelled`; callback bodies can poll it.
    public var isCancelled: Bool { cancellationState?.isCancelled ?? false }

    /// Cancels `task` when the awaiting task is cancelled, or at once if it already is; never for a perform
    /// that cannot be cancelled.
    func onCancel(cancelling task: Task<Void, Never>) {
        cancellationState?.onCancel(cancelling: task)
    }
}
