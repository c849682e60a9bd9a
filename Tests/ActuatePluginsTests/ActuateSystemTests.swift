import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins

// MARK: - Fixtures

final class OpenStoreAction: Action {
    typealias InputType = String
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<String>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Promises to complete and never does, to exercise the completion watchdog.
final class StallAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.willCompleteAsync()
    }
}

final class StoreFeature: Feature, URLMapped {
    static let openStore = action(OpenStoreAction.self)
    static let stall = action(StallAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(openStore)
        actions.declare(stall)
    }

    static func urlMappings(routes: URLMappingsBuilder<StoreFeature>) {
        routes.send("store/$(name)", to: openStore)
    }
}

final class StoreBetaFeature: ConditionalFeature {
    static let openStore = action(OpenStoreAction.self)

    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.userToggled(defaultValue: false) }
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(openStore) }
}

final class StoreApp: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [StoreFeature.self, StoreBetaFeature.self]
}

final class BrokenStoreApp: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [BrokenRoutesFeature.self]
}

/// A plugin that counts completions and reports the count as a debug report section.
final class CountingPlugin: ActionDispatchPlugin, DebugReportable {
    private let count = Mutex(0)

    var completions: Int { count.withLock { $0 } }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        count.withLock { $0 += 1 }
    }

    var debugReportSectionName: String { "counting" }
    func debugReportJSON() throws -> Data { Data("{\"completions\":\(completions)}".utf8) }
    func debugReportText() -> String { "completions: \(completions)\n" }
}

extension ActuateSystem {
    /// An isolated test system with virtual time and recording diagnostics.
    static func testing(
        _ group: any FeatureDefinition.Type = StoreApp.self,
        scheduler: TestScheduler = TestScheduler(),
        diagnostics: RecordingDiagnostics = RecordingDiagnostics(),
        plugins: [any ActionDispatchPlugin] = [],
        toggles: InMemoryUserToggles = InMemoryUserToggles()
    ) throws(ActuateSetupError) -> ActuateSystem {
        try setup(
            group: group,
            dispatching: .isolated(scheduler: scheduler, diagnostics: diagnostics, completionTimeout: .seconds(1)),
            configuration: ActuateConfiguration(
                plugins: plugins,
                routes: URLRouterConfiguration(appSchemes: ["store"]),
                userToggles: toggles
            )
        )
    }
}

// MARK: - Tests

@Suite("Actuate system")
struct ActuateSystemTests {
    @Test("setup registers the group and builds sessions, timeline, plugins, debug report, router and availability")
    func setupBuildsEverything() async throws {
        let recorder = RecordingPlugin()
        let counter = CountingPlugin()
        let system = try ActuateSystem.testing(plugins: [recorder, counter])

        #expect(
            system.features.map(\.path.description) == [
                "StoreApp", "StoreApp/StoreFeature", "StoreApp/StoreBetaFeature",
            ]
        )
        #expect(system.mainSession.name == "main")
        #expect(system.mainSession.dispatcher === system.dispatcher)
        #expect(system.dispatcher !== ActionDispatcher.shared)
        #expect(system.dispatcher.installedPlugins.count == 3)
        #expect(system.dispatcher.installedPlugins.first as? Timeline === system.timeline)
        #expect(system.debugReport.sections.map(\.debugReportSectionName) == ["timeline", "availability", "counting"])
        #expect(system.router.routeDescriptions == ["store/$(name) → Store › Open Store"])
        #expect(system.availability.isRegistered(StoreBetaFeature.self))

        #expect(await system.mainSession.perform(StoreFeature.openStore, input: "north").isSuccess)
        #expect(system.timeline.snapshot().map(\.inputDescription) == ["north"])
        #expect(recorder.completedActionNames == ["Open Store"])
        #expect(counter.completions == 1)
        let report = try JSONSerialization.jsonObject(with: system.debugReport.jsonData()) as? [String: Any]
        #expect((report?["counting"] as? [String: Any])?["completions"] as? Int == 1)
    }

    @Test("session(named:) gives one session per name, on the system's dispatcher")
    func sessions() async throws {
        let system = try ActuateSystem.testing()
        let background = system.session(named: "background")
        #expect(system.session(named: "background") === background)
        #expect(system.session(named: "main") === system.mainSession)
        #expect(background.dispatcher === system.dispatcher)
        #expect(await background.perform(StoreFeature.openStore, input: "b").isSuccess)
        #expect(system.timeline.snapshot().map(\.sessionName) == ["background"])
    }

    @Test("the system opens URLs in its main session and builds links its router opens")
    func routes() async throws {
        let system = try ActuateSystem.testing()
        let link = try system.links.appLink(to: StoreFeature.openStore, input: "east wing")
        #expect(link.absoluteString == "store://store/east%20wing")
        #expect(await system.open(url: link).isSuccess)
        let entry = try #require(system.timeline.snapshot().first)
        #expect(entry.inputDescription == "east wing")
        #expect(entry.source == .openURL)
        #expect(entry.sessionName == "main")
    }

    @Test("the configured clock, diagnostics and completion timeout reach the dispatcher and timeline")
    func dispatcherConfiguration() async throws {
        let scheduler = TestScheduler()
        let diagnostics = RecordingDiagnostics()
        let system = try ActuateSystem.testing(scheduler: scheduler, diagnostics: diagnostics)
        #expect(await system.mainSession.perform(StoreFeature.openStore, input: "x").isSuccess)
        #expect(system.timeline.snapshot().first?.startDate == scheduler.now())
        system.mainSession.perform(StoreFeature.stall, completion: nil)
        for _ in 0..<10_000 where system.dispatcher.pendingAsyncCompletions == 0 { await Task.yield() }
        #expect(system.dispatcher.pendingAsyncCompletions == 1)
        scheduler.advance(by: .seconds(1))
        #expect(diagnostics.kinds == [.neverCompleted])
    }

    @Test("conditional features are requested through the system's availability")
    func conditionalThroughSystem() throws {
        let toggles = InMemoryUserToggles()
        let system = try ActuateSystem.testing(toggles: toggles)
        #expect(system.request(StoreBetaFeature.openStore) == nil)
        #expect(system.availability.setUserToggle(StoreBetaFeature.self, enabled: true))
        #expect(system.request(StoreBetaFeature.openStore) != nil)
        #expect(toggles.isEnabled("StoreApp/StoreBetaFeature") == true)
    }

    @Test("a malformed route makes setup throw with every problem")
    func setupRejectsBadRoutes() {
        #expect {
            try ActuateSystem.testing(BrokenStoreApp.self)
        } throws: { error in
            guard case .malformedRoutes(let routes) = error as? ActuateSetupError else { return false }
            return routes.problems.count == 3
        }
    }

    @Test("two isolated systems built and used in parallel share neither timelines nor availability")
    func isolatedSystemsInParallel() async throws {
        let onToggles = InMemoryUserToggles()
        let offToggles = InMemoryUserToggles()
        async let first = Self.exercise(name: "first", toggles: onToggles, enableBeta: true)
        async let second = Self.exercise(name: "second", toggles: offToggles, enableBeta: false)
        let (a, b) = try await (first, second)

        #expect(a.dispatcher !== b.dispatcher)
        #expect(a.timeline !== b.timeline)
        #expect(Set(a.timeline.snapshot().map(\.inputDescription)) == Set((0..<50).map { "first-\($0)" }))
        #expect(Set(b.timeline.snapshot().map(\.inputDescription)) == Set((0..<50).map { "second-\($0)" }))
        #expect(a.availability.isAvailable(StoreBetaFeature.self) == true)
        #expect(b.availability.isAvailable(StoreBetaFeature.self) == false)
        #expect(a.request(StoreBetaFeature.openStore) != nil)
        #expect(b.request(StoreBetaFeature.openStore) == nil)
        #expect(FeatureAvailability().isAvailable(StoreBetaFeature.self) == false)
    }

    private static func exercise(
        name: String,
        toggles: InMemoryUserToggles,
        enableBeta: Bool
    ) async throws
        -> ActuateSystem
    {
        let system = try ActuateSystem.testing(toggles: toggles)
        system.availability.setUserToggle(StoreBetaFeature.self, enabled: enableBeta)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    _ = await system.mainSession.perform(StoreFeature.openStore, input: "\(name)-\(index)")
                }
            }
        }
        #expect(system.availability.isAvailable(StoreBetaFeature.self) == enableBeta)
        return system
    }

    @Test("quick setup uses the shared dispatcher, so binding.perform() reaches its timeline; a second replaces it")
    func quickSetup() async throws {
        let first = try ActuateSystem.quickSetup(group: StoreApp.self)
        #expect(ActuateSystem.current === first)
        #expect(first.mainSession === ActionSession.main)
        #expect(first.dispatcher === ActionDispatcher.shared)
        #expect(await StoreFeature.openStore.perform(input: "quick-1").isSuccess)
        #expect(first.timeline.snapshot().contains { $0.inputDescription == "quick-1" })

        #expect(StoreBetaFeature.openStore.request() == nil)
        first.availability.setUserToggle(StoreBetaFeature.self, enabled: true)
        let verified = try #require(StoreBetaFeature.openStore.request())
        #expect(await verified.perform(input: "quick-beta").isSuccess)
        #expect(first.timeline.snapshot().contains { $0.inputDescription == "quick-beta" })

        let second = try ActuateSystem.quickSetup(group: StoreApp.self)
        #expect(ActuateSystem.current === second)
        #expect(StoreBetaFeature.openStore.request() == nil, "the new system has its own toggles")
        #expect(await StoreFeature.openStore.perform(input: "quick-2").isSuccess)
        #expect(second.timeline.snapshot().contains { $0.inputDescription == "quick-2" })
        #expect(!first.timeline.snapshot().contains { $0.inputDescription == "quick-2" })
        #expect(!ActionDispatcher.shared.installedPlugins.contains { $0 as? Timeline === first.timeline })
    }
}
