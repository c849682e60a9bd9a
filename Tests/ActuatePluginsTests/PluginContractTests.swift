import Actuate
import ActuateTesting
import Dispatch
import Synchronization
import Testing
@testable import ActuatePlugins

// No `@testable` here: these tests use the plugin contract exactly as an app's own plugin, or ActuatePlugins, does.

private enum ContractQueues {
    static let first = DispatchQueue(label: "actuate.tests.plugin-contract.first")
    static let second = DispatchQueue(label: "actuate.tests.plugin-contract.second")
}

private final class FirstQueueAction: Action {
    static var queue: DispatchQueue { ContractQueues.first }
    static var analyticsID: String? { "first" }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class SecondQueueAction: Action {
    static var queue: DispatchQueue { ContractQueues.second }
    static var hideFromTimeline: Bool { true }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class ContractFeature: Feature {
    static let first = action(FirstQueueAction.self)
    static let second = action(SecondQueueAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(first)
        actions.declare(second)
    }
}

/// Prepared only by ``PluginContractTests/prepareGroup()``, so that no other test sees its path change.
private final class PreparedFeature: Feature {
    static let first = action(FirstQueueAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(first)
    }
}

private final class ContractGroup: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [PreparedFeature.self] }
}

/// What a plugin written against the public API sees of each request.
private final class ContractPlugin: ActionDispatchPlugin {
    struct Seen: Equatable {
        var queueIndex: Int
        var feature: MetadataReference<FeatureMetadata>
        var action: MetadataReference<ActionMetadata>
        var actionName: String
        /// Whether the header, which plugins read on their hot path, agrees with the request's own properties.
        var headerAgrees: Bool
    }

    let seen = Mutex<[Seen]>([])
    /// The durations the header computes from each completion reading.
    let durations = Mutex<[UInt64?]>([])

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        let seen = Seen(
            queueIndex: request.queueIndex,
            feature: request.featureReference,
            action: request.actionReference,
            actionName: request.actionReference.withMetadata { $0.name },
            headerAgrees: Self.agree(request.header, request)
        )
        self.seen.withLock { $0.append(seen) }
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        let duration = request.header.durationNanoseconds(completedAt: request.completionUptimeNanoseconds)
        durations.withLock { $0.append(duration == request.durationNanoseconds ? duration : nil) }
    }

    private static func agree<F, A>(_ header: RequestHeader, _ request: ActionRequest<F, A>) -> Bool {
        header.uniqueID == request.uniqueID && header.date == request.date
            && header.startUptimeNanoseconds == request.startUptimeNanoseconds
            && header.queueIndex == request.queueIndex && header.sessionName == request.sessionName
            && header.userInitiated == request.userInitiated && header.source == request.source
            && header.inputDescription == request.inputDescription
            && header.featureReference == request.featureReference && header.actionReference == request.actionReference
            && header.hasTrait(PluginContractTests.analyticsID) == request.hasTrait(PluginContractTests.analyticsID)
            && header.trait(PluginContractTests.analyticsID) == request.trait(PluginContractTests.analyticsID)
    }
}

@Suite("Plugin contract")
struct PluginContractTests {
    static let analyticsID = ActionTrait<String>("contract analytics ID") { action in action.analyticsID }

    @Test("a plugin reads the queue index and uncounted metadata references of each request")
    func requestReads() async {
        let plugin = ContractPlugin()
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        dispatcher.add(plugin: plugin)
        let session = ActionSession(named: "contract", dispatcher: dispatcher)

        _ = await session.perform(ContractFeature.first)
        _ = await session.perform(ContractFeature.second)
        _ = await session.perform(ContractFeature.first)

        let seen = plugin.seen.withLock { $0 }
        #expect(seen.map(\.actionName) == ["First Queue", "Second Queue", "First Queue"])
        // One index per queue: the same for every request of a queue, another for another queue.
        #expect(seen[0].queueIndex == seen[2].queueIndex)
        #expect(seen[0].queueIndex != seen[1].queueIndex)
        // References compare and hash by the metadata they name, which is the one the registry keeps.
        #expect(seen[0].action == seen[2].action)
        #expect(seen[0].action != seen[1].action)
        #expect(Set(seen.map(\.feature)).count == 1)
        #expect(seen[0].feature.metadata === seen[1].feature.metadata)
        #expect(seen[1].action.metadata.typeName == "SecondQueueAction")
        #expect(seen.map(\.headerAgrees) == [true, true, true])
        #expect(plugin.durations.withLock { $0 } == [0, 0, 0])
    }

    @Test("FeatureMetadata.prepare gives every feature of a group its path under the group, the group first")
    func prepareGroup() throws {
        let features = try FeatureMetadata.prepare(ContractGroup.self)
        #expect(features.map(\.path.description) == ["ContractGroup", "ContractGroup/PreparedFeature"])
        #expect(features[1].actions.map(\.name) == ["First Queue"])
        #expect(PreparedFeature.identifier == features[1].path)
    }

    @Test("the built-in plugins read an action's statics through traits: hidden actions, analytics identifiers")
    func builtInTraits() async {
        let timeline = Timeline(maxEntries: 10)
        let stacks = ActionStacksPlugin()
        let analytics = RecordingAnalyticsProvider()
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        for plugin: any ActionDispatchPlugin in [timeline, stacks, AnalyticsPlugin(provider: analytics)] {
            dispatcher.add(plugin: plugin)
        }
        let session = ActionSession(named: "traits", dispatcher: dispatcher)

        _ = await session.perform(ContractFeature.first)
        _ = await session.perform(ContractFeature.second)

        #expect(timeline.snapshot().map(\.actionName) == ["First Queue"])
        #expect(stacks.snapshot().open.flatMap(\.entries).map(\.actionName) == ["First Queue"])
        #expect(analytics.events.map(\.analyticsID) == ["first", "first"])
    }
}
