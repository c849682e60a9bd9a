import ActuateTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

// A stress test for campaign delivery, written to give the Thread Sanitizer races to find: several threads track
// actions that earn campaigns while others make screens appear, disappear and come and go, send the app to the
// background and back, let the virtual clock run out visibility timeouts and idle time, and set user attributes.
// At the end every screen is made active, and each campaign must have met exactly one fate: handed once to the
// handler of the context that earned it, or dropped once. Every wait is bounded.

@Suite("Campaign delivery under stress")
struct CampaignStressTests {
    private static let screenCount = 4
    private static let requesterThreads = 4
    private static let requestsPerThread = 60
    private static let temporaryScreens = 30
    /// More virtual time than the app thread ever advances: 3 seconds on at most a third of 20,000 rounds.
    private static let watchdogTimeout: Duration = .seconds(1_000_000)

    @Test("campaigns earned while contexts appear, disappear, pause and resume each meet exactly one fate")
    func deliveryWhileContextsChangeState() async throws {
        // Each tracked action earns one campaign whose id is the action's name: `<context name>#<number>`.
        // The app thread below runs the virtual clock far ahead while deliveries are on their way in real time,
        // so the harness's completion watchdog gets a deadline that virtual time cannot reach; the bounded waits
        // catch a hang instead.
        let harness = ActionTestHarness(completionTimeout: Self.watchdogTimeout)
        let store = MemoryEventStore()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: harness.scheduler,
            identity: Identity(storage: MemoryIdentityStorage(StoredIdentity(anonymousID: "visitor-1")))
        )
        let deliveries = CampaignDeliveries()
        let deliveryQueue = DispatchQueue(label: "actuate.tests.campaign-stress-delivery")
        deliveryQueue.setSpecific(key: CampaignDeliveries.queueKey, value: true)
        let directory = TemporaryDirectory()
        let manager = CampaignManager(
            reporter: reporter,
            source: ScriptedCampaignSource { request in
                guard case .action(let name) = request.trigger else { return [] }
                return [.test(name)]
            },
            scheduler: harness.scheduler,
            configuration: CampaignConfiguration(
                idleThreshold: CampaignFixture.idleThreshold,
                visibilityTimeout: CampaignFixture.visibilityTimeout,
                deliveryQueue: deliveryQueue,
                session: harness.session
            ),
            directory: directory.url
        )
        let handler: @Sendable (String) -> CampaignHandler = { label in
            { campaign in deliveries.record(label, campaign) }
        }
        let fates = CampaignFates()
        harness.dispatcher.add(plugin: fates)
        let screens = (0..<Self.screenCount).map { manager.makeScreen(named: "screen-\($0)") }
        for screen in screens {
            screen.viewWillAppear()
            screen.setCampaignHandler(handler(screen.name), forTarget: "banner")
            screen.viewDidAppear()
        }
        manager.globalContext.setCampaignHandler(handler("global"), forTarget: "banner")
        let requested = Mutex<[String]>([])
        let requestersDone = Atomic<Int>(0)
        // The lifecycle and app threads keep changing state until every requester is done and every campaign has
        // been decided on at least once (a bounded number of rounds, so a lost campaign cannot stall them).
        let campaignCount = Self.requesterThreads * Self.requestsPerThread + Self.temporaryScreens
        let requesting: @Sendable (Int) -> Bool = { round in
            guard round < 20_000 else { return false }
            return round < Self.requestsPerThread
                || requestersDone.load(ordering: .acquiring) < Self.requesterThreads
                || fates.decidedCampaigns < campaignCount
        }
        let attributes = Mutex<[String]>([])

        await onOwnThread {
            DispatchQueue.concurrentPerform(iterations: Self.requesterThreads + 3) { thread in
                switch thread {
                case ..<Self.requesterThreads:
                    for index in 0..<Self.requestsPerThread {
                        let context: CampaignContext =
                            index % 5 == 0 ? manager.globalContext : screens[(thread + index) % screens.count]
                        let name = "\(context.name)#\(thread)-\(index)"
                        requested.withLock { $0.append(name) }
                        context.trackAction(name)
                        if index % 3 == 0 {
                            let attribute = "attribute-\(thread)-\(index)"
                            attributes.withLock { $0.append(attribute) }
                            manager.setUserAttribute("set", forName: attribute)
                        }
                    }
                    requestersDone.add(1, ordering: .releasing)
                case Self.requesterThreads:
                    // Screens go through their lifecycle, out of step with each other.
                    var round = 0
                    while requesting(round) {
                        defer { round += 1 }
                        let screen = screens[round % screens.count]
                        switch round % 4 {
                        case 0: screen.viewWillDisappear()
                        case 1: screen.viewWillAppear()
                        case 2: screen.setCampaignHandler(handler(screen.name), forTarget: "banner")
                        default: screen.viewDidAppear()
                        }
                        _ = screen.isActive
                        _ = screen.inactivityCauses
                    }
                case Self.requesterThreads + 1:
                    // The app pauses and resumes, the user goes idle and comes back, timers fire.
                    var round = 0
                    while requesting(round) {
                        defer { round += 1 }
                        manager.setApplicationInForeground(round % 3 != 0)
                        if round % 4 == 0 { manager.recordUserInteraction() }
                        if round % 3 == 0 { harness.scheduler.advance(by: .seconds(3)) }
                        _ = manager.isUserIdle
                    }
                default:
                    // Screens are created, earn a campaign and are released, some before they ever appear.
                    for index in 0..<Self.temporaryScreens {
                        let screen = manager.makeScreen(named: "temporary-\(index)")
                        screen.viewWillAppear()
                        screen.setCampaignHandler(handler(screen.name), forTarget: "banner")
                        let name = "\(screen.name)#0"
                        requested.withLock { $0.append(name) }
                        screen.trackAction(name)
                        if index % 2 == 0 { screen.viewDidAppear() }
                    }
                }
            }
        }
        try await withBoundedWait("the campaign engine") { await manager.waitUntilSettled() }

        // Everything becomes active again: held campaigns reach their handlers.
        manager.setApplicationInForeground(true)
        manager.recordUserInteraction()
        for screen in screens {
            screen.viewWillAppear()
            screen.setCampaignHandler(handler(screen.name), forTarget: "banner")
            screen.viewDidAppear()
        }
        manager.globalContext.trackAction("global#final")
        requested.withLock { $0.append("global#final") }
        try await withBoundedWait("the campaign engine") { await manager.waitUntilSettled() }

        let names = requested.withLock { $0 }
        #expect(Set(names).count == names.count)
        let delivered = Dictionary(grouping: deliveries.all, by: \.campaign.campaignID)
        let report = fates.report
        for name in names {
            let deliveries = delivered[name] ?? []
            let dropped = report.dropped[name] ?? 0
            #expect(deliveries.count + dropped == 1, "\(name): delivered \(deliveries.count) times, dropped \(dropped)")
            #expect(report.delivered[name] ?? 0 == deliveries.count, "\(name): the timeline disagrees")
            let owner = String(name.prefix { $0 != "#" })
            #expect(deliveries.allSatisfy { $0.handler == owner }, "\(name) reached \(deliveries.map(\.handler))")
        }
        #expect(deliveries.all.allSatisfy { $0.onDeliveryQueue })
        #expect(Set(delivered.keys).isSubset(of: Set(names)))
        #expect(report.unknown.isEmpty, "\(report.unknown.prefix(5))")
        // Screens that stayed are active and hold nothing.
        for screen in screens { #expect(screen.isActive) }
        #expect(manager.globalContext.isActive)

        // Every tracked action was recorded once, and every attribute travelled with exactly one event.
        let events = try store.fetch(count: 100_000, maxBytes: .max)
        let actionNames = events.filter { $0.type == CampaignEventType.userAction.rawValue }
            .compactMap { $0.properties[CampaignEventKey.name]?.stringValue }
        #expect(actionNames.sorted() == names.sorted())
        var carried: [String: Int] = [:]
        for event in events {
            guard case .object(let values) = event.properties[CampaignEventKey.userAttributes] else { continue }
            for name in values.keys { carried[name, default: 0] += 1 }
        }
        let expectedAttributes = attributes.withLock { $0 }
        #expect(carried == Dictionary(uniqueKeysWithValues: expectedAttributes.map { ($0, 1) }))
        harness.checkDiagnostics()
    }
}

/// Counts, from the delivery decisions the dispatcher performed, how often each campaign was delivered and how
/// often it was dropped: by a Drop decision, or by a delivery that found its context cleared or released. Holds
/// are not fates; a delivery turned back into a hold is not either.
private final class CampaignFates: ActionDispatchPlugin {
    struct Report {
        var delivered: [String: Int] = [:]
        var dropped: [String: Int] = [:]
        /// Decisions whose campaign id could not be read.
        var unknown: [String] = []
        /// The campaigns decided on at least once.
        var decided: Set<String> = []
    }

    private let state = Mutex(Report())

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        let summary = request.summary
        guard summary.actionName.hasSuffix(" Campaign") else { return }
        guard let id = Self.campaignID(in: summary.inputDescription) else {
            state.withLock { $0.unknown.append(summary.inputDescription) }
            return
        }
        _ = state.withLock { $0.decided.insert(id) }
        let fate: WritableKeyPath<Report, [String: Int]>?
        switch (summary.actionName, outcome) {
        case ("Deliver Campaign", .success): fate = \.delivered
        case ("Deliver Campaign", .failure(let error as CampaignNotDelivered)):
            fate = error.verdict == .drop ? \.dropped : nil
        case ("Drop Campaign", .success): fate = \.dropped
        case ("Hold Campaign", .success): fate = nil
        default:
            state.withLock { $0.unknown.append("\(summary.actionName): \(summary.inputDescription) → \(outcome)") }
            return
        }
        if let fate { state.withLock { $0[keyPath: fate][id, default: 0] += 1 } }
    }

    /// The id in `campaign "Campaign x" (x) for target "banner" in …`: the first parenthesised word.
    private static func campaignID(in description: String) -> String? {
        guard let open = description.firstIndex(of: "("),
            let close = description[open...].firstIndex(of: ")")
        else { return nil }
        return String(description[description.index(after: open)..<close])
    }

    var report: Report { state.withLock { $0 } }

    /// How many campaigns have been decided on at least once.
    var decidedCampaigns: Int { state.withLock { $0.decided.count } }
}
