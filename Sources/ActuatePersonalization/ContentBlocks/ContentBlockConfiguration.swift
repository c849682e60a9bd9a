import Actuate
import Dispatch
import Foundation

/// How a ``ContentBlockManager`` runs: its clock, queues, action session and rules.
public struct ContentBlockConfiguration: Sendable {
    /// The clock for time-to-live, carousel rotation and history expiry. Use the reporter's scheduler.
    package var scheduler: any ActuateScheduler
    /// The action session (its dispatcher and timeline) the tracking actions are performed in.
    package var actionSession: ActionSession
    /// The serial queue for all file and network work; a manager given the main queue uses a private serial
    /// queue instead, so no file or network work ever runs on the main queue.
    var workQueue: DispatchQueue
    /// The queue that surfaces are driven on and callbacks are called on; the main queue by default.
    var callbackQueue: DispatchQueue
    /// Opens the links users click that ``router`` does not answer, in the default behaviour. When neither
    /// opens a clicked link, the click is tracked and ``onError`` gets ``ContentBlockError/linkNotOpened(url:reason:)``.
    var urlOpener: (any ContentBlockURLOpener)?
    /// The app's URL router: in the default behaviour a clicked link whose scheme or universal-link host it
    /// answers opens through it, in its default session. Set by ``routed(through:)``; nil by default.
    package var router: URLRouter?
    /// How long display and interaction history is kept; 30 days by default. That an `onlyOnce` block was shown
    /// is kept for good, so it is never shown again.
    var historyRetention: Duration
    /// How long a carousel shows each block; 3 seconds by default.
    var carouselInterval: Duration
    /// The link schemes a click may carry; others are reported as errors. The web schemes (`http`,
    /// `https`, `mailto`, `tel`) by default; ``routed(through:)`` adds the app's own schemes for deep links.
    /// Those in ``ContentLinkSchemes/neverAllowed`` (`javascript`, `data`, `blob`, `file`, …) are never accepted.
    var allowedLinkSchemes: Set<String>
    /// The query parameter that, set to `true` in a clicked link, records the click whatever the consent,
    /// tagged `tracking_forced`: ``defaultForceTrackParameter`` by default.
    var forceTrackParameter: String
    /// `xnpe_force_track`, the force-track parameter as Exponea documents it; pass it to `ReportingSetup` (or
    /// `ReportingRouteObserver`) so that opening such a link is recorded whatever the consent, too.
    public static let defaultForceTrackParameter = "xnpe_force_track"
    /// How long an asset download may wait for its next bytes; 30 seconds by default.
    var assetTimeout: Duration
    /// How long one asset download may take in all, however steadily bytes arrive; 60 seconds by default.
    var assetDeadline: Duration
    /// The largest asset accepted, in bytes; 5 MB by default. A download stops as soon as it passes the limit.
    var maxAssetBytes: Int
    /// The most bytes the asset cache keeps, in memory and on disk; 50 MB by default. The least recently used
    /// assets are dropped first.
    var maxAssetCacheBytes: Int
    /// The largest document a block may become once its assets are inlined, in bytes; 16 MB by default. A block
    /// that names one asset in many places would otherwise grow without bound.
    var maxDocumentBytes: Int
    /// Called with every problem the manager meets (source failures, unreadable history), on any thread. A
    /// source that keeps failing the same way is reported once until it answers again, however many placeholders
    /// and prefetches asked it; each placeholder still tells its behaviour callback.
    package var onError: (@Sendable (ContentBlockError) -> Void)?

    /// Creates a configuration.
    /// - Parameters:
    ///   - scheduler: The clock; the system scheduler by default.
    ///   - session: The session for tracking actions; `ActionSession/main` by default.
    ///   - workQueue: The queue for file and asset work, where the source's answers are handled; a new serial
    ///     queue by default. The source itself is asked from a task, off this queue and the main queue.
    ///   - callbackQueue: The queue for surfaces and callbacks; the main queue by default.
    ///   - urlOpener: Opens clicked links; nil by default.
    ///   - historyRetention: How long history is kept; 30 days by default.
    ///   - carouselInterval: How long a carousel shows each block; 3 seconds by default.
    ///   - allowedLinkSchemes: The link schemes a click may carry.
    ///   - forceTrackParameter: The force-track query parameter.
    ///   - assetTimeout: How long an asset download may wait for its next bytes.
    ///   - assetDeadline: How long one asset download may take in all.
    ///   - maxAssetBytes: The largest asset accepted.
    ///   - maxAssetCacheBytes: The most bytes the asset cache keeps.
    ///   - maxDocumentBytes: The largest document a block may become with its assets inlined.
    ///   - onError: Called with every problem.
    public init(
        scheduler: any ActuateScheduler = SystemScheduler.shared,
        session: ActionSession = .main,
        workQueue: DispatchQueue? = nil,
        callbackQueue: DispatchQueue = .main,
        urlOpener: (any ContentBlockURLOpener)? = nil,
        historyRetention: Duration = .seconds(30 * 24 * 3600),
        carouselInterval: Duration = .seconds(3),
        allowedLinkSchemes: Set<String> = ContentLinkSchemes.web,
        forceTrackParameter: String = ContentBlockConfiguration.defaultForceTrackParameter,
        assetTimeout: Duration = .seconds(30),
        assetDeadline: Duration = .seconds(60),
        maxAssetBytes: Int = 5_000_000,
        maxAssetCacheBytes: Int = 50_000_000,
        maxDocumentBytes: Int = 16_000_000,
        onError: (@Sendable (ContentBlockError) -> Void)? = nil
    ) {
        self.scheduler = scheduler
        self.actionSession = session
        self.workQueue = workQueue ?? DispatchQueue(label: "actuate.personalization.content-blocks.work")
        self.callbackQueue = callbackQueue
        self.urlOpener = urlOpener
        self.historyRetention = historyRetention
        self.carouselInterval = carouselInterval
        self.allowedLinkSchemes = ContentLinkSchemes.checked(allowedLinkSchemes)
        self.forceTrackParameter = forceTrackParameter
        self.assetTimeout = assetTimeout
        self.assetDeadline = assetDeadline
        self.maxAssetBytes = maxAssetBytes
        self.maxAssetCacheBytes = maxAssetCacheBytes
        self.maxDocumentBytes = maxDocumentBytes
        self.onError = onError
    }
}

extension ContentBlockConfiguration {
    /// This configuration wired through `system`: clicked links open through the system's URL router when it
    /// answers them (its app schemes and universal-link hosts), tracking actions run in the system's main
    /// session, and links in the app's own schemes are accepted besides `allowedLinkSchemes`.
    ///
    /// ```swift
    /// let manager = ContentBlockManager(
    ///     source: try LocalContentBlockSource(contentsOf: rulesURL), reporter: reporter, directory: directory,
    ///     configuration: ContentBlockConfiguration().routed(through: system)
    /// )
    /// ```
    /// - Parameter system: The app's system.
    /// - Returns: The wired configuration.
    public func routed(through system: ActuateSystem) -> ContentBlockConfiguration {
        var wired = self
        wired.router = system.router
        wired.actionSession = system.mainSession
        wired.allowedLinkSchemes = allowedLinkSchemes.union(ContentLinkSchemes.allowed(by: system.router.configuration))
        return wired
    }
}

/// Opens a link a user clicked in a content block: `UIApplication.shared.open`, `NSWorkspace.shared.open`,
/// or the app's router.
public protocol ContentBlockURLOpener: Sendable {
    /// Opens `url`. Called on the manager's callback queue.
    /// - Parameter url: The clicked link.
    func open(_ url: URL)
}

/// How a carousel placeholder rotates through its blocks.
public struct ContentBlockCarousel: Sendable, Hashable {
    /// The most blocks to rotate through, or nil for all that match.
    var maxCount: Int?
    /// How long each block is shown; nil uses `ContentBlockConfiguration.carouselInterval`.
    package var interval: Duration?

    /// Creates a carousel.
    /// - Parameters:
    ///   - maxCount: The most blocks to rotate through, or nil for all.
    ///   - interval: How long each block is shown, or nil for the manager's default.
    public init(maxCount: Int? = nil, interval: Duration? = nil) {
        self.maxCount = maxCount
        self.interval = interval
    }
}
