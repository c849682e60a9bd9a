import Foundation

/// One request to perform action `A` of feature `F`, as plugins see it.
///
/// The request carries the dispatcher's clock readings, as a SwiftNIO handler reads its event loop's clock:
/// the dispatcher reads its ``ActuateScheduler`` once when the request is made (``date`` and
/// ``RequestHeader/startUptimeNanoseconds``) and once when the action completes
/// (``completionUptimeNanoseconds``), and plugins take every date and duration from these readings, so that
/// they all agree with each other and with a test's `TestScheduler`. No plugin owns a clock.
///
/// Everything but the input has a fixed size and comes first, so that plugins, which are generic over the
/// request, read those fields without looking up generic layouts at run time.
///
/// A request holds no reference that a dispatch has to count: the metadata is held `unowned(unsafe)` (the
/// registry keeps it for the life of the process), and no shared logger or cancellation token is held unless
/// one is in use. The ``context`` is made when it is read.
public struct ActionRequest<F: FeatureDefinition, A: Action>: Sendable {
    /// Everything but the input and the completion reading, as the dispatch stored it: one plain copy.
    ///
    /// A plugin's callbacks are generic over the request, and run unspecialized: reading this stored property,
    /// and then the header's fields, needs no generic metadata, where calling a computed property of the
    /// request may. So plugins on the hot path read `let header = request.header` once and use its fields.
    public let header: RequestHeader
    /// The dispatcher clock's monotonic reading when the action completed, in nanoseconds; nil in
    /// ``ActionDispatchPlugin/actionWillBegin(_:)``, set in ``ActionDispatchPlugin/actionDidComplete(_:outcome:)``.
    ///
    /// A stored property, so that unspecialized plugin code reads it without generic metadata. The dispatcher
    /// sets it on the copy each plugin gets; a plugin that changes its copy changes no one else's.
    public var completionUptimeNanoseconds: UInt64?
    /// The number of the dispatcher's table of the values plugins attach (see `RequestValues.swift`), or 0 when
    /// no plugin of the dispatch is in a stage that may attach any. A 32-bit number, so that it fits in the padding
    /// after ``completionUptimeNanoseconds`` and a request is no bigger for it.
    @usableFromInline var valueTableNumber: UInt32 = 0
    /// The input the action was performed with.
    @usableFromInline let input: A.InputType

    @inlinable
    init(header: RequestHeader, input: A.InputType) {
        self.header = header
        self.completionUptimeNanoseconds = nil
        self.input = input
    }

    /// The request's identifier, unique among its dispatcher's requests. Requests on one queue get increasing
    /// ids. With ``SystemScheduler`` each queue takes its ids in blocks of 64, so ids of different queues are not
    /// in the order of dispatch; with any other scheduler, as in tests, each request's id is one more than the
    /// last.
    @inlinable public var uniqueID: UInt64 { header.uniqueID }
    /// When the request was made, on the dispatcher's wall clock.
    @inlinable public var date: Date { header.date }
    /// The dispatcher clock's monotonic reading when the request was made, in nanoseconds.
    @inlinable package var startUptimeNanoseconds: UInt64 { header.startUptimeNanoseconds }
    /// The feature's metadata.
    @inlinable public var feature: FeatureMetadata { header.feature.object }
    /// The action's metadata.
    @inlinable public var action: ActionMetadata { header.action.object }
    /// The feature's metadata, as a reference that counts no reference to copy or store: for plugins that keep
    /// a record per request, or read one field on every dispatch.
    @inlinable package var featureReference: MetadataReference<FeatureMetadata> {
        MetadataReference(header.feature)
    }
    /// The action's metadata, as a reference that counts no reference to copy or store.
    @inlinable package var actionReference: MetadataReference<ActionMetadata> {
        MetadataReference(header.action)
    }
    /// The action's value of `trait`, resolved once per action type: one array read, no lock, no cast.
    ///
    /// - Parameter trait: A trait a plugin declared, such as `ReportingPlugin`'s.
    /// - Returns: The value, or nil when the action does not have the trait.
    @inlinable @inline(__always) public func trait<Value>(_ trait: ActionTrait<Value>) -> Value? {
        header.action.withObject { $0.traits.value(of: trait) }
    }
    /// Whether the action has `trait`, without copying its value.
    @inlinable @inline(__always) package func hasTrait<Value>(_ trait: ActionTrait<Value>) -> Bool {
        header.action.withObject { $0.traits.has(slot: trait.index) }
    }
    /// A small process-unique number of the action's queue, the same for every request of that queue: plugins
    /// that keep per-queue state (as the timeline keeps a shard per queue) index it with this number, so that
    /// actions on independent queues never wait for each other's lock.
    @inlinable package var queueIndex: Int { header.queueIndex }
    /// The name of the session the request runs in.
    @inlinable public var sessionName: String { header.sessionName }
    /// Whether the user asked for this directly.
    @inlinable public var userInitiated: Bool { header.userInitiated }
    /// Where the request came from.
    @inlinable package var source: ActionSource { header.source }
    /// The input's ``Loggable/loggingDescription``, computed once per request.
    @inlinable package var inputDescription: String { header.inputDescription }
    /// The context the body receives.
    @inlinable public var context: ActionContext<A.InputType> {
        ActionContext(input: input, fields: header.contextFields)
    }

    /// How long the action took, in nanoseconds on the dispatcher's monotonic clock; nil until it completed.
    @inlinable
    package var durationNanoseconds: UInt64? {
        header.durationNanoseconds(completedAt: completionUptimeNanoseconds)
    }

    /// How long the action took, in seconds; nil until it completed.
    @inlinable
    public var duration: TimeInterval? {
        durationNanoseconds.map { TimeInterval($0) / 1e9 }
    }

    /// When the action completed, on the dispatcher's wall clock: ``date`` plus ``duration``; nil until it
    /// completed.
    @inlinable
    public var completionDate: Date? {
        duration.map { date.addingTimeInterval($0) }
    }

    /// A type-erased summary, for plugins that store requests.
    package var summary: ActionRequestSummary {
        ActionRequestSummary(
            uniqueID: uniqueID,
            actionName: action.name,
            featureName: feature.name,
            featurePath: feature.path,
            sessionName: sessionName,
            inputDescription: inputDescription,
            userInitiated: userInitiated,
            source: source,
            date: date
        )
    }
}

/// Everything in an ``ActionRequest`` but its input and completion reading: what a dispatch stores, and what a
/// plugin reads on its hot path, without generic metadata (see ``ActionRequest/header``).
public struct RequestHeader: Sendable {
    /// The request's identifier, unique among its dispatcher's requests. Requests on one queue get increasing
    /// ids. With ``SystemScheduler`` each queue takes its ids in blocks of 64, so ids of different queues are not
    /// in the order of dispatch; with any other scheduler, as in tests, each request's id is one more than the
    /// last.
    public let uniqueID: UInt64
    /// When the request was made, on the dispatcher's wall clock.
    public let date: Date
    /// The dispatcher clock's monotonic reading when the request was made, in nanoseconds.
    public let startUptimeNanoseconds: UInt64
    // Unretained is safe: the metadata comes from `FeatureRegistry.shared`, which keeps it alive for the life
    // of the process, even for a request a plugin stores.
    @usableFromInline let feature: UnownedReference<FeatureMetadata>
    @usableFromInline let action: UnownedReference<ActionMetadata>
    /// A small process-unique number of the action's queue, the same for every request of that queue: plugins
    /// that keep per-queue state (as the timeline keeps a shard per queue) index it with this number, so that
    /// actions on independent queues never wait for each other's lock.
    public let queueIndex: Int
    /// The input's ``Loggable/loggingDescription``, computed once per request.
    public let inputDescription: String
    /// What the action's body sees of the request, besides its input: stored together, so that the dispatch lends
    /// them to the body's ``ActionContext`` in one piece (see ``RequestContextFields``).
    @usableFromInline let contextFields: RequestContextFields

    /// The name of the session the request runs in.
    @inlinable public var sessionName: String { contextFields.sessionName }
    /// Whether the user asked for this directly.
    @inlinable public var userInitiated: Bool { contextFields.userInitiated }
    /// Where the request came from.
    @inlinable public var source: ActionSource { contextFields.source }
    @inlinable var logs: ActionLogs? { contextFields.logs }
    @inlinable var cancellation: ActionCancellation? { contextFields.cancellation }
    /// The request's dependency values, or nil when there are none (see ``DependencyStore``).
    @inlinable var dependencies: DependencyStore? { contextFields.dependencies }

    /// The feature's metadata, as a reference that counts nothing (see ``MetadataReference``).
    @inlinable public var featureReference: MetadataReference<FeatureMetadata> { MetadataReference(feature) }
    /// The action's metadata, as a reference that counts nothing.
    @inlinable public var actionReference: MetadataReference<ActionMetadata> { MetadataReference(action) }

    /// The action's value of `trait`, as ``ActionRequest/trait(_:)``.
    ///
    /// - Parameter trait: A trait a plugin declared.
    /// - Returns: The value, or nil when the action does not have the trait.
    @inlinable @inline(__always) public func trait<Value>(_ trait: ActionTrait<Value>) -> Value? {
        action.withObject { $0.traits.value(of: trait) }
    }

    /// Whether the action has `trait`, without copying its value: one atomic load and a bit test.
    ///
    /// - Parameter trait: A trait a plugin declared.
    /// - Returns: Whether the action has it.
    @inlinable @inline(__always) public func hasTrait<Value>(_ trait: ActionTrait<Value>) -> Bool {
        action.withObject { $0.traits.has(slot: trait.index) }
    }

    /// How long the request took, in nanoseconds, given the completion reading.
    ///
    /// - Parameter completion: ``ActionRequest/completionUptimeNanoseconds``.
    /// - Returns: The duration, or nil when `completion` is nil.
    @inlinable public func durationNanoseconds(completedAt completion: UInt64?) -> UInt64? {
        completion.map { $0 >= startUptimeNanoseconds ? $0 - startUptimeNanoseconds : 0 }
    }

    @inlinable
    init(
        uniqueID: UInt64,
        date: Date,
        startUptimeNanoseconds: UInt64,
        feature: UnownedReference<FeatureMetadata>,
        action: UnownedReference<ActionMetadata>,
        queueIndex: Int,
        sessionName: String,
        userInitiated: Bool,
        source: ActionSource,
        inputDescription: String,
        logs: ActionLogs?,
        cancellation: ActionCancellation?,
        dependencies: DependencyStore?
    ) {
        self.uniqueID = uniqueID
        self.date = date
        self.startUptimeNanoseconds = startUptimeNanoseconds
        self.feature = feature
        self.action = action
        self.queueIndex = queueIndex
        self.inputDescription = inputDescription
        self.contextFields = RequestContextFields(
            source: source,
            sessionName: sessionName,
            userInitiated: userInitiated,
            logs: logs,
            cancellation: cancellation,
            dependencies: dependencies
        )
    }
}

/// A type-erased description of one action request.
public struct ActionRequestSummary: Sendable, Hashable, Codable {
    /// The request's unique identifier.
    public var uniqueID: UInt64
    /// The action's display name.
    public var actionName: String
    /// The feature's display name.
    public var featureName: String
    /// The feature's identifier.
    public var featurePath: FeaturePath
    /// The session the request ran in.
    public var sessionName: String
    /// The input's ``Loggable/loggingDescription``.
    public var inputDescription: String
    /// Whether the user asked for this directly.
    public var userInitiated: Bool
    /// Where the request came from.
    public var source: ActionSource
    /// When the request was made.
    public var date: Date

    /// Creates a summary.
    package init(
        uniqueID: UInt64,
        actionName: String,
        featureName: String,
        featurePath: FeaturePath,
        sessionName: String,
        inputDescription: String,
        userInitiated: Bool,
        source: ActionSource,
        date: Date
    ) {
        self.uniqueID = uniqueID
        self.actionName = actionName
        self.featureName = featureName
        self.featurePath = featurePath
        self.sessionName = sessionName
        self.inputDescription = inputDescription
        self.userInitiated = userInitiated
        self.source = source
        self.date = date
    }
}
