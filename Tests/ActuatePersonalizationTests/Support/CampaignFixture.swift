import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

/// Campaigns wired as an app wires them: a manager over a reporter and a memory store, delivery decisions
/// performed in a test harness's session (with its timeline), timeouts on its virtual clock, and handlers called
/// on a delivery queue of the test's own.
struct CampaignFixture {
    static let idleThreshold: Duration = .seconds(60)
    static let visibilityTimeout: Duration = .seconds(5)

    let harness: ActionTestHarness
    let store: MemoryEventStore
    let reporter: Reporter
    let deliveryQueue: DispatchQueue
    let manager: CampaignManager
    let deliveries: CampaignDeliveries
    /// The manager's folder, deleted with the fixture; pass it to another fixture to simulate a relaunch.
    let directory: TemporaryDirectory

    init(
        source: any CampaignSource,
        reportDecisions: Bool = false,
        store: MemoryEventStore = MemoryEventStore(),
        visitor: String = "visitor-1",
        directory: TemporaryDirectory = TemporaryDirectory()
    ) {
        let harness = ActionTestHarness()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: harness.scheduler,
            identity: Identity(storage: MemoryIdentityStorage(StoredIdentity(anonymousID: visitor)))
        )
        if reportDecisions {
            harness.dispatcher.add(plugin: ReportingPlugin(reporter: reporter))
        }
        let deliveries = CampaignDeliveries()
        let deliveryQueue = DispatchQueue(label: "actuate.tests.campaign-delivery")
        deliveryQueue.setSpecific(key: CampaignDeliveries.queueKey, value: true)
        self.harness = harness
        self.store = store
        self.reporter = reporter
        self.deliveryQueue = deliveryQueue
        self.deliveries = deliveries
        self.directory = directory
        self.manager = CampaignManager(
            reporter: reporter,
            source: source,
            scheduler: harness.scheduler,
            configuration: CampaignConfiguration(
                idleThreshold: Self.idleThreshold,
                visibilityTimeout: Self.visibilityTimeout,
                deliveryQueue: deliveryQueue,
                session: harness.session
            ),
            directory: directory.url
        )
    }

    /// A fixture whose local source offers `campaigns`, each for the action named in the pair.
    init(
        offering campaigns: [(action: String, campaign: Campaign)],
        reportDecisions: Bool = false,
        store: MemoryEventStore = MemoryEventStore(),
        visitor: String = "visitor-1",
        directory: TemporaryDirectory = TemporaryDirectory()
    ) {
        let rules = campaigns.map {
            CampaignRule(campaign: $0.campaign, trigger: CampaignTriggerRule(event: .action($0.action)))
        }
        self.init(
            source: LocalCampaignSource(rules: CampaignRules(rules: rules)),
            reportDecisions: reportDecisions,
            store: store,
            visitor: visitor,
            directory: directory
        )
    }

    var scheduler: TestScheduler { harness.scheduler }

    /// A handler that records what it receives under `label`.
    func handler(_ label: String) -> CampaignHandler {
        let deliveries = deliveries
        return { campaign in deliveries.record(label, campaign) }
    }

    /// Waits for every campaign request, decision and delivery to finish.
    func settle() async {
        await manager.waitUntilSettled()
    }

    /// The campaign decisions in the timeline, as `Action name: input description`, with the failure message of
    /// a delivery that did not happen.
    func decisions() -> [String] {
        harness.timeline.snapshot().map { entry in
            var line = "\(entry.actionName): \(entry.inputDescription)"
            if case .failure(let message) = entry.outcome { line += " → \(message)" }
            return line
        }
    }

    /// Every stored event except session boundaries, oldest first.
    func events() throws -> [ReportEvent] {
        try store.fetch(count: 100_000, maxBytes: .max).filter { !$0.type.hasPrefix("session_") }
    }

    /// The stored events of one type.
    func events(_ type: ReportEventType) throws -> [ReportEvent] {
        try events().filter { $0.type == type.rawValue }
    }
}

/// What campaign handlers received, in order, and whether each call ran on the fixture's delivery queue.
final class CampaignDeliveries: Sendable {
    struct Delivery: Sendable, Hashable {
        var handler: String
        var campaign: Campaign
        var onDeliveryQueue: Bool
    }

    static let queueKey = DispatchSpecificKey<Bool>()

    private let recorded = Mutex<[Delivery]>([])

    func record(_ handler: String, _ campaign: Campaign) {
        let onQueue = DispatchQueue.getSpecific(key: Self.queueKey) == true
        recorded.withLock { $0.append(Delivery(handler: handler, campaign: campaign, onDeliveryQueue: onQueue)) }
    }

    var all: [Delivery] { recorded.withLock { $0 } }

    /// `handler: campaignId` for each delivery.
    var summary: [String] { all.map { "\($0.handler): \($0.campaign.campaignID)" } }
}

extension Campaign {
    /// A campaign for tests.
    static func test(
        _ id: String,
        target: String = "banner",
        messageID: String? = nil,
        data: [String: JSONValue] = [:],
        isControlGroup: Bool = false
    ) -> Campaign {
        Campaign(
            target: target,
            campaignID: id,
            campaignName: "Campaign \(id)",
            messageID: messageID,
            data: data,
            isControlGroup: isControlGroup
        )
    }
}

/// A campaign source that answers each request only when the test releases it, for campaigns that arrive late.
final class GatedCampaignSource: CampaignSource {
    private struct State {
        var waiting: [CheckedContinuation<[Campaign], Never>] = []
        var requestWaiters: [CheckedContinuation<Void, Never>] = []
        var requests: [CampaignRequest] = []
    }

    private let state = Mutex(State())

    func campaigns(for request: CampaignRequest) async throws -> [Campaign] {
        await withCheckedContinuation { continuation in
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.requests.append(request)
                state.waiting.append(continuation)
                defer { state.requestWaiters = [] }
                return state.requestWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once a request is waiting for an answer.
    func waitForRequest() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard state.waiting.isEmpty else { return true }
                state.requestWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Answers the oldest waiting request.
    func answer(_ campaigns: [Campaign]) {
        let next = state.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }
        next?.resume(returning: campaigns)
    }

    var requests: [CampaignRequest] { state.withLock { $0.requests } }
}

/// A campaign source that answers from a closure, or fails.
struct ScriptedCampaignSource: CampaignSource {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var answer: @Sendable (CampaignRequest) throws -> [Campaign]

    func campaigns(for request: CampaignRequest) async throws -> [Campaign] {
        try answer(request)
    }
}
