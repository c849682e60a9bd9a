import Actuate
import ActuatePersonalization
import ActuateReporting
import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// A whole personalization stack for a test, on one virtual clock, with relaunches: a durable event store, a
/// reporter, a campaign manager and a content-block manager, their queues, and the reporting plugin that turns
/// their decisions into events.
///
/// ```swift
/// let app = try PersonalizationTestHarness(rules: rules)
/// app.campaigns.globalContext.setCampaignHandler({ _ in }, forTarget: "banner")
/// app.campaigns.globalContext.trackAction("Open Home")
/// await app.settle()
/// #expect(try app.events("campaign_delivered").count == 1)
/// ```
///
/// One `TestScheduler` (ActuateTesting) drives everything: the reporter's sessions, the campaigns' idle and
/// visibility timeouts, the content blocks' time-to-live and carousels, the store's group commit and the
/// dispatcher's watchdog. Every launch keeps its state in one temporary folder, removed when the harness is
/// released: ``relaunch()`` closes the store, removes the reporting plugin and makes every part again on the
/// same folders, as the next launch of the app would, so order ids, the duplicate window, display history,
/// identity and the open session carry over. Actions run in ``session``, whose ``timeline`` records every
/// decision; the harness is strict, as `ActionTestHarness` is.
public final class PersonalizationTestHarness: Sendable {
    /// What one launch made. ``PersonalizationTestHarness/relaunch()`` replaces it.
    public struct Launch: Sendable {
        /// The durable store, in the harness's folder.
        public let store: FileEventStore
        /// The reporter every part records through.
        public let reporter: Reporter
        /// The campaigns, delivered on ``PersonalizationTestHarness/deliveryQueue``.
        public let campaigns: CampaignManager
        /// The content blocks, loaded on ``PersonalizationTestHarness/workQueue`` and shown on
        /// ``PersonalizationTestHarness/callbackQueue``.
        public let contentBlocks: ContentBlockManager
        let plugin: ReportingPlugin
    }

    /// The dispatcher, session, timeline and virtual clock, the same for every launch.
    public let actions: ActionTestHarness
    /// The folder every launch keeps its state in: `events`, `identity`, `campaigns` and `content-blocks`.
    public let directory: URL
    /// The queue campaign handlers are called on.
    public let deliveryQueue = DispatchQueue(label: "actuate.personalization-test.delivery")
    /// The queue content blocks' file and network work runs on.
    public let workQueue = DispatchQueue(label: "actuate.personalization-test.work")
    /// The queue content-block surfaces are driven on and their callbacks called on.
    public let callbackQueue = DispatchQueue(label: "actuate.personalization-test.callbacks")

    private let campaignSource: any CampaignSource
    private let contentBlockSource: any ContentBlockSource
    private let opener = RecordingOpener()
    private let current: Mutex<Launch>

    /// Creates the first launch with campaigns and content blocks from one rules file's JSON.
    /// - Parameters:
    ///   - rules: The rules file's JSON: its `campaigns` and `contentBlocks` arrays, either of them absent.
    ///   - visitor: The anonymous id of the installation, kept across relaunches.
    ///   - sourceLocation: Where to report diagnostics that no perform caused.
    /// - Throws: `RulesFileError` when the rules are invalid, `EventStoreError` when the store cannot open.
    public convenience init(
        rules: String = "{}",
        visitor: String = "visitor-1",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try self.init(
            campaignSource: try LocalCampaignSource(data: Data(rules.utf8), name: "test rules"),
            contentBlockSource: try LocalContentBlockSource(data: Data(rules.utf8), name: "test rules"),
            visitor: visitor,
            sourceLocation: sourceLocation
        )
    }

    /// Creates the first launch with sources of the test's own, such as a scripted campaign server.
    /// - Parameters:
    ///   - campaignSource: Where campaigns come from, in every launch.
    ///   - contentBlockSource: Where content blocks come from, in every launch.
    ///   - visitor: The anonymous id of the installation, kept across relaunches.
    ///   - sourceLocation: Where to report diagnostics that no perform caused.
    /// - Throws: `EventStoreError` when the store cannot open.
    public init(
        campaignSource: any CampaignSource,
        contentBlockSource: any ContentBlockSource,
        visitor: String = "visitor-1",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        actions = ActionTestHarness(sessionName: "personalization", sourceLocation: sourceLocation)
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("actuate-personalization-test-\(UUID().uuidString)")
        self.campaignSource = campaignSource
        self.contentBlockSource = contentBlockSource
        try FileIdentityStorage(directory: directory.appendingPathComponent("identity"))
            .save(StoredIdentity(anonymousID: visitor))
        current = Mutex(
            try Self.makeLaunch(
                actions: actions,
                directory: directory,
                campaignSource: campaignSource,
                contentBlockSource: contentBlockSource,
                queues: (deliveryQueue, workQueue, callbackQueue),
                opener: opener
            )
        )
    }

    deinit {
        let launch = current.withLock { $0 }
        actions.dispatcher.remove(plugin: launch.plugin)
        try? launch.store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: The current launch

    /// The current launch's parts.
    public var launch: Launch { current.withLock { $0 } }
    /// The current launch's reporter.
    public var reporter: Reporter { launch.reporter }
    /// The current launch's campaign manager.
    public var campaigns: CampaignManager { launch.campaigns }
    /// The current launch's content-block manager.
    public var contentBlocks: ContentBlockManager { launch.contentBlocks }
    /// The virtual clock of every part and every launch.
    public var scheduler: TestScheduler { actions.scheduler }
    /// The session the campaign decisions and content-block tracking are performed in.
    public var session: ActionSession { actions.session }
    /// Every action the parts performed, in every launch: campaign decisions, ignored purchases, content-block
    /// shows, clicks, closes and errors.
    public var timeline: Timeline { actions.timeline }
    /// The links content blocks opened, oldest first: the harness's `ContentBlockURLOpener`.
    public var openedLinks: [URL] { opener.opened }

    /// Ends this launch and starts the next on the same folders, on the same clock: the reporting plugin is
    /// removed, the store closed, and a store, reporter and managers made again, reading what this launch left.
    /// The managers of this launch must not be used afterwards.
    /// - Throws: `EventStoreError` when the store cannot close or open again.
    public func relaunch() throws {
        try current.withLock { launch in
            actions.dispatcher.remove(plugin: launch.plugin)
            try launch.store.close()
            launch = try Self.makeLaunch(
                actions: actions,
                directory: directory,
                campaignSource: campaignSource,
                contentBlockSource: contentBlockSource,
                queues: (deliveryQueue, workQueue, callbackQueue),
                opener: opener
            )
        }
    }

    /// Returns once every campaign request, decision and delivery, every content-block load and tracking action,
    /// and every hop to the harness's queues started so far has finished. Tests await it instead of sleeping.
    public func settle() async {
        let launch = launch
        await launch.campaigns.waitUntilSettled()
        await launch.contentBlocks.waitUntilIdle()
        await launch.campaigns.waitUntilSettled()
        for queue in [deliveryQueue, workQueue, callbackQueue] {
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        }
    }

    // MARK: Recorded events

    /// Every event in the store, oldest first, across launches (until an uploader removed them).
    /// - Throws: `EventStoreError` when the store cannot be read.
    public func events() throws -> [ReportEvent] {
        let store = launch.store
        try store.flush()
        return try store.fetch(count: try store.count(), maxBytes: .max)
    }

    /// The stored events of one type, oldest first: `"campaign_delivered"`, `"purchase_ignored"`, `.purchase`,
    /// `"session_end"`, … (a `ReportEventType` is written as its raw value).
    /// - Parameter type: The event type.
    /// - Returns: The events of that type.
    /// - Throws: `EventStoreError` when the store cannot be read.
    public func events(_ type: ReportEventType) throws -> [ReportEvent] {
        try events().filter { $0.type == type.rawValue }
    }

    /// The types of the stored events, oldest first, without the session boundaries: a quick picture of what
    /// happened.
    /// - Throws: `EventStoreError` when the store cannot be read.
    public func eventTypes() throws -> [String] {
        try events().map(\.type).filter { !$0.hasPrefix("session_") }
    }

    // MARK: Making a launch

    private static func makeLaunch(
        actions: ActionTestHarness,
        directory: URL,
        campaignSource: any CampaignSource,
        contentBlockSource: any ContentBlockSource,
        queues: (delivery: DispatchQueue, work: DispatchQueue, callback: DispatchQueue),
        opener: RecordingOpener
    ) throws -> Launch {
        let store = try FileEventStore(
            directory: directory.appendingPathComponent("events"),
            configuration: FileEventStoreConfiguration(scheduler: actions.scheduler)
        )
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: actions.scheduler,
            identity: Identity(storage: FileIdentityStorage(directory: directory.appendingPathComponent("identity")))
        )
        let plugin = ReportingPlugin(reporter: reporter)
        actions.dispatcher.add(plugin: plugin)
        let campaigns = CampaignManager(
            reporter: reporter,
            source: campaignSource,
            scheduler: actions.scheduler,
            configuration: CampaignConfiguration(deliveryQueue: queues.delivery, session: actions.session),
            directory: directory.appendingPathComponent("campaigns")
        )
        let contentBlocks = ContentBlockManager(
            source: contentBlockSource,
            reporter: reporter,
            directory: directory.appendingPathComponent("content-blocks"),
            configuration: ContentBlockConfiguration(
                scheduler: actions.scheduler,
                session: actions.session,
                workQueue: queues.work,
                callbackQueue: queues.callback,
                urlOpener: opener
            )
        )
        return Launch(
            store: store,
            reporter: reporter,
            campaigns: campaigns,
            contentBlocks: contentBlocks,
            plugin: plugin
        )
    }
}

/// Records the links content blocks open, in place of the app's opener.
private final class RecordingOpener: ContentBlockURLOpener {
    private let links = Mutex<[URL]>([])

    func open(_ url: URL) {
        links.withLock { $0.append(url) }
    }

    var opened: [URL] { links.withLock { $0 } }
}
