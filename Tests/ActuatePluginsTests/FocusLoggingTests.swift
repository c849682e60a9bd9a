import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

@Suite("Focus logging")
struct FocusLoggingTests {
    /// A dispatcher whose requests log through a focus logging into an in-memory backend.
    private struct Setup {
        let scheduler = TestScheduler()
        let backend = InMemoryLogBackend()
        let logging: FocusLogging
        let session: ActionSession

        init(
            developmentDefaultLevel: LogLevel = .info,
            productionDefaultLevel: LogLevel = .warning,
            maxRecentEvents: Int = FocusLogging.defaultMaxRecentEvents
        ) {
            _ = FocusFixtures.registered
            logging = FocusLogging(
                backend: backend,
                developmentDefaultLevel: developmentDefaultLevel,
                productionDefaultLevel: productionDefaultLevel,
                maxRecentEvents: maxRecentEvents
            )
            let dispatcher = ActionDispatcher(
                scheduler: scheduler,
                diagnostics: RecordingDiagnostics(),
                loggerFactory: logging
            )
            session = ActionSession(named: "focus", dispatcher: dispatcher)
        }

        /// Runs the cart feature's logging action and returns the messages it got through.
        @discardableResult
        func cart(_ label: String) async -> [String] {
            await run(FocusCartFeature.log, label)
        }

        /// Runs the account feature's logging action and returns the messages it got through.
        @discardableResult
        func account(_ label: String) async -> [String] {
            await run(FocusAccountFeature.log, label)
        }

        private func run<F>(_ binding: StaticActionBinding<F, LogEverythingAction>, _ label: String) async -> [String] {
            backend.removeAll()
            _ = await session.perform(binding, input: label)
            return backend.messages
        }
    }

    private static func all(_ label: String) -> [String] {
        ["dev", "prod"].flatMap { channel in LogLevel.allCases.map { "\(channel) \($0) \(label)" } }
    }

    @Test("with nothing focused, development logs from info and production from warning")
    func defaults() async {
        let setup = Setup()
        #expect(
            await setup.cart("x") == ["dev info x", "dev warning x", "dev error x", "prod warning x", "prod error x"]
        )
    }

    @Test("the levels used while nothing is focused are configurable")
    func configurableDefaults() async {
        let setup = Setup(developmentDefaultLevel: .debug, productionDefaultLevel: .error)
        #expect(await setup.cart("x") == ["dev debug x", "dev info x", "dev warning x", "dev error x", "prod error x"])
    }

    @Test("a focused feature logs from debug up, on both loggers")
    func focused() async {
        let setup = Setup()
        setup.logging.selection.focus(FocusFixtures.cartPath)
        #expect(await setup.cart("x") == Self.all("x"))
    }

    @Test("a feature outside the focus logs only errors")
    func notFocused() async {
        let setup = Setup()
        setup.logging.selection.focus(FocusFixtures.cartPath)
        #expect(await setup.account("y") == ["dev error y", "prod error y"])
    }

    @Test(
        "errors always pass, whatever is focused",
        arguments: [[], [FocusFixtures.cartPath], [FocusFixtures.accountPath]] as [Set<FeaturePath>]
    )
    func errorsAlwaysPass(selection: Set<FeaturePath>) async {
        let setup = Setup(developmentDefaultLevel: .error, productionDefaultLevel: .error)
        setup.logging.selection.replace(with: selection)
        let messages = await setup.cart("x")
        #expect(messages.contains("dev error x"))
        #expect(messages.contains("prod error x"))
    }

    @Test("focusing a group focuses the features inside it, and only those")
    func nested() async {
        let setup = Setup()
        #expect(FocusFixtures.cartPath.components.count == 3, "the cart feature must sit inside two groups")
        setup.logging.selection.focus(FocusFixtures.shopPath)
        #expect(setup.logging.selection.isFocused(FocusFixtures.cartPath))
        #expect(await setup.cart("x") == Self.all("x"))
        #expect(await setup.account("y") == ["dev error y", "prod error y"])

        setup.logging.selection.replace(with: [FeaturePath(["FocusAppFeatures"])])
        #expect(await setup.account("z") == Self.all("z"))
    }

    @Test("changing the selection at runtime affects the requests made afterwards")
    func runtimeChange() async {
        let setup = Setup()
        #expect(await setup.account("before").count == 5)
        setup.logging.selection.focus(FocusFixtures.cartPath)
        #expect(await setup.account("during") == ["dev error during", "prod error during"])
        #expect(await setup.cart("during").count == 8)
        setup.logging.selection.unfocus(FocusFixtures.cartPath)
        #expect(setup.logging.selection.isEmpty)
        #expect(await setup.account("after").count == 5)
    }

    @Test("the last N events are kept in a ring buffer; the backend gets them all")
    func ringBuffer() async {
        let setup = Setup(maxRecentEvents: 3)
        #expect(setup.logging.maxRecentEvents == 3)
        await setup.cart("x")
        #expect(setup.backend.events.count == 5)
        #expect(setup.logging.recentEvents().map(\.message) == ["dev error x", "prod warning x", "prod error x"])
        setup.logging.clearRecentEvents()
        #expect(setup.logging.recentEvents().isEmpty)
    }

    @Test("the default ring buffer keeps 1,000 events")
    func defaultCapacity() {
        #expect(FocusLogging(backend: NoOpLogBackend()).maxRecentEvents == 1_000)
    }

    @Test("each event carries the date from the scheduler, level, channel, feature, action, session and message")
    func eventContext() async throws {
        let setup = Setup()
        setup.scheduler.advance(by: .seconds(90))
        await setup.cart("x")
        let event = try #require(setup.backend.events.first)
        #expect(event.date == setup.scheduler.now())
        #expect(event.level == .info)
        #expect(event.channel == .development)
        #expect(event.featurePath == FocusFixtures.cartPath)
        #expect(event.actionName == "Log Everything")
        #expect(event.sessionName == "focus")
        #expect(event.message == "dev info x")
        #expect(
            event.formatted.contains("FocusAppFeatures/FocusShopFeatures/FocusCartFeature › Log Everything [focus]")
        )
    }

    @Test("messages below the level are never built")
    func lazyMessages() throws {
        let setup = Setup()
        let feature = FeatureRegistry.shared.metadata(for: FocusAccountFeature.self)
        let action = try #require(feature.actions.first)
        let logs = setup.logging.makeLogs(feature: feature, action: action, session: "direct", clock: setup.scheduler)
        let built = Atomic<Int>(0)
        func message() -> String {
            built.add(1, ordering: .relaxed)
            return "built"
        }
        logs.development.debug(message())
        logs.production.info(message())
        #expect(built.load(ordering: .relaxed) == 0)
        #expect(!logs.development.isEnabled(.debug))
        logs.production.error(message())
        #expect(built.load(ordering: .relaxed) == 1)
        #expect(setup.backend.events.map(\.sessionName) == ["direct"])
    }

    @Test("the debug report has a focus logs section with the selection and the recent events")
    func debugReport() async throws {
        let setup = Setup()
        setup.logging.selection.focus(FocusFixtures.shopPath)
        await setup.cart("x")
        let timeline = Timeline(maxEntries: 10)
        let report = DebugReport(reportables: [setup.logging, timeline], dispatcher: setup.session.dispatcher)
        #expect(report.sections.map(\.debugReportSectionName) == ["timeline", "focusLogs"])

        let text = report.text()
        #expect(text.contains("== focusLogs"))
        #expect(text.contains("Focused: FocusAppFeatures/FocusShopFeatures"))
        #expect(text.contains("dev debug x"))

        let json = try #require(JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        let section = try #require(json["focusLogs"] as? [String: Any])
        #expect((section["events"] as? [Any])?.count == 8)
        #expect((section["focusedPaths"] as? [Any])?.count == 1)
    }

    @Test("a multiplex backend writes to each backend; no-op drops")
    func multiplex() async {
        let first = InMemoryLogBackend()
        let second = InMemoryLogBackend()
        let logging = FocusLogging(
            backend: MultiplexLogBackend([first, NoOpLogBackend(), second])
        )
        let session = ActionSession(
            named: "multi",
            dispatcher: ActionDispatcher(
                scheduler: TestScheduler(),
                diagnostics: RecordingDiagnostics(),
                loggerFactory: logging
            )
        )
        _ = FocusFixtures.registered
        _ = await session.perform(FocusAccountFeature.log, input: "m")
        #expect(first.messages.count == 5)
        #expect(second.events == first.events)
    }
}
