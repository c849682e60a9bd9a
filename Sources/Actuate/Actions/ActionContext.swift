/// Everything an action's body is given about one request to perform it.
public struct ActionContext<Input: Loggable>: Sendable {
    /// The input the action was performed with.
    public let input: Input
    /// The rest of the request that the body sees, as the request's header stores it.
    @usableFromInline let fields: RequestContextFields

    /// Where the request came from.
    @inlinable public var source: ActionSource { fields.source }
    /// The name of the session the action runs in.
    @inlinable public var session: String { fields.sessionName }
    /// Whether the user asked for this directly, rather than the app doing it on its own.
    @inlinable public var userInitiated: Bool { fields.userInitiated }

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
            fields: RequestContextFields(
                source: source,
                sessionName: session,
                userInitiated: userInitiated,
                logs: logs,
                cancellation: nil,
                dependencies: dependencies.isLiveAndEmpty ? nil : DependencyStore(dependencies)
            )
        )
    }

    /// The context of a request whose header holds `fields`, performed with `input`.
    @inlinable
    init(input: Input, fields: RequestContextFields) {
        self.input = input
        self.fields = fields
    }

    /// Loggers for this request, filtered by the focus selection when focus logging is installed.
    public var logs: ActionLogs { fields.logs ?? .disabled }

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
        guard let dependencies = fields.dependencies else { return Key.liveValue }
        return try dependencies.values.resolve(key)
    }

    /// Whether the task awaiting this perform has been cancelled.
    ///
    /// `async` bodies also see it as `Task.isCancelled`; callback bodies can poll it.
    public var isCancelled: Bool { fields.cancellation?.isCancelled ?? false }

    /// Cancels `task` when the awaiting task is cancelled, or at once if it already is; never for a perform
    /// that cannot be cancelled.
    func onCancel(cancelling task: Task<Void, Never>) {
        fields.cancellation?.onCancel(cancelling: task)
    }
}
