import ActuateTesting
import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// What an ActuateSystem installs is in its debug report; systems answer requests on their own instance; the
// results tests compare are Equatable.

private enum ReportQueue {
    static let queue = DispatchQueue(label: "actuate.tests.system-report")
}

private struct OutOfStock: Error, Equatable {
    var sku: String
}

/// Opens an aisle named by its input; `empty` fails with ``OutOfStock``.
private final class OpenAisleAction: Action {
    typealias InputType = String
    static var queue: DispatchQueue { ReportQueue.queue }

    static func perform(
        context: ActionContext<String>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(context.input == "empty" ? .failure(error: OutOfStock(sku: "s1")) : .success)
    }
}

private final class AisleFeature: Feature, URLMapped {
    static let open = action(OpenAisleAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(open)
    }

    static func urlMappings(routes: URLMappingsBuilder<AisleFeature>) {
        routes.send("aisle/$(name)", to: open)
    }
}

private final class LabsFeature: ConditionalFeature {
    static let open = action(OpenAisleAction.self)

    static func constraints(requirements: FeatureConstraintsBuilder) { requirements.userToggled(defaultValue: false) }
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(open) }
}

private final class AisleApp: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [AisleFeature.self, LabsFeature.self]
}

@Suite("System debug report and results")
struct SystemDebugReportTests {
    private func system(
        loggerFactory: (any ActionLoggerFactory)? = nil,
        plugins: [any ActionDispatchPlugin] = [],
        toggles: InMemoryUserToggles = InMemoryUserToggles()
    ) throws -> ActuateSystem {
        try ActuateSystem.setup(
            group: AisleApp.self,
            dispatching: .isolated(
                scheduler: TestScheduler(),
                diagnostics: RecordingDiagnostics(),
                loggerFactory: loggerFactory
            ),
            configuration: ActuateConfiguration(
                plugins: plugins,
                routes: URLRouterConfiguration(appSchemes: ["aisle"]),
                userToggles: toggles
            )
        )
    }

    @Test("the debug report holds every DebugReportable the system installed, the logger factory included")
    func everythingInstalledIsReported() throws {
        let logging = FocusLogging(backend: NoOpLogBackend())
        let stacks = ActionStacksPlugin()
        let system = try system(
            loggerFactory: logging,
            plugins: [AnalyticsPlugin(provider: NoOpAnalyticsProvider()), stacks]
        )
        let sections = system.debugReport.sections
        #expect(sections.map(\.debugReportSectionName) == ["timeline", "actionStacks", "focusLogs", "availability"])
        #expect(sections.contains { ($0 as? FocusLogging) === logging })
        #expect(sections.contains { ($0 as? ActionStacksPlugin) === stacks })
        #expect(sections.contains { ($0 as? Timeline) === system.timeline })
        #expect(sections.contains { ($0 as? FeatureAvailability) === system.availability })
    }

    @Test("systems answer request() on their own instance, so tests in parallel never share an answer")
    func requestOnTheInstance() throws {
        let enabled = InMemoryUserToggles()
        let first = try system(toggles: enabled)
        let second = try system()
        #expect(first.availability.setUserToggle(LabsFeature.self, enabled: true))
        #expect(first.request(LabsFeature.open) != nil)
        #expect(second.request(LabsFeature.open) == nil)
    }

    @Test("URL route results compare with ==, errors included")
    func routeResultsAreEquatable() async throws {
        let system = try system()
        #expect(await system.open(url: try #require(URL(string: "aisle://aisle/fruit"))) == .performed(.success))
        #expect(
            await system.open(url: try #require(URL(string: "aisle://aisle/empty")))
                == .performed(.failure(error: OutOfStock(sku: "s1")))
        )
        #expect(
            await system.open(url: try #require(URL(string: "aisle://aisle/empty")))
                != .performed(.failure(error: OutOfStock(sku: "s2")))
        )
        #expect(await system.open(url: try #require(URL(string: "aisle://nowhere"))) == .noMatch)
        #expect(await system.open(url: try #require(URL(string: "other://aisle/x"))) == .unsupportedScope)
        #expect(URLRouteResult.badParameter(name: "id", reason: "x") != .badParameter(name: "id", reason: "y"))
    }

    @Test("activity continuation results compare with ==, errors included")
    func activityResultsAreEquatable() async throws {
        let system = try system()
        let router = ActivityRouter(activityTypePrefix: "test")
        let type = router.register(AisleFeature.open) { userInfo in
            guard let name = userInfo["name"] else { throw ActivityContinuationError.missingUserInfoKey("name") }
            return name
        }
        let session = system.mainSession
        #expect(
            await router.continue(activityType: type, userInfo: ["name": "fruit"], session: session)
                == .performed(.success)
        )
        #expect(
            await router.continue(activityType: type, userInfo: [:], session: session)
                == .badInput(ActivityContinuationError.missingUserInfoKey("name"))
        )
        #expect(
            await router.continue(activityType: type, userInfo: [:], session: session)
                != .badInput(ActivityContinuationError.missingUserInfoKey("sku"))
        )
        #expect(await router.continue(activityType: "test.none", userInfo: [:], session: session) == .noMatch)
    }

    @Test("outcomes compare errors by == when Equatable, otherwise by type and reflected description")
    func outcomeEquality() {
        struct Opaque: Error {
            var code: Int
        }
        #expect(ActionOutcome.failure(error: Opaque(code: 1)) == .failure(error: Opaque(code: 1)))
        #expect(ActionOutcome.failure(error: Opaque(code: 1)) != .failure(error: Opaque(code: 2)))
        #expect(ActionOutcome.failure(error: Opaque(code: 1)) != .failure(error: OutOfStock(sku: "1")))
        #expect(ActionOutcome.success != .failure(error: Opaque(code: 1)))
        #expect(ActionPerformOutcome.successWithFeatureTermination != .success)
        #expect(
            ActionPerformOutcome.failureWithFeatureTermination(error: OutOfStock(sku: "a"))
                == .failureWithFeatureTermination(error: OutOfStock(sku: "a"))
        )
    }
}
