import Actuate
import ActuateReporting
import Foundation

/// The entry point of Evergage-style campaigns: owns the global context, creates screen contexts, and knows
/// whether the app is in the foreground and the user is active.
///
/// ```swift
/// let campaigns = CampaignManager(
///     reporter: reporter,
///     source: try LocalCampaignSource(contentsOf: rulesURL),
///     scheduler: SystemScheduler.shared,
///     configuration: CampaignConfiguration(),
///     directory: supportDirectory.appendingPathComponent("campaigns")
/// )
/// let screen = campaigns.makeScreen(named: "Product")
/// ```
///
/// The directory is required, as the tracker's and the content blocks' are: the documented Evergage behaviours
/// that span launches (a repeated order id is ignored, the mirrored cart, the duplicate window) keep their state
/// there, so none of them silently lasts for one process only. Apps pass a folder in Application Support; tests
/// pass a temporary folder of their own and reuse it to simulate a relaunch.
///
/// Delivery decisions are performed as actions of `PersonalizationFeature` in the configuration's session,
/// so the timeline shows every campaign delivered, held and dropped, and why. Handlers run on the
/// configuration's delivery queue, the main queue by default. Idle time and visibility timeouts run on the
/// injected scheduler.
public final class CampaignManager: Sendable {
    let engine: CampaignEngine

    /// The context that lives as long as the app: no lifecycle, active whenever the app and user are.
    public let globalContext: CampaignContext

    /// Creates a manager.
    /// - Parameters:
    ///   - reporter: Where tracking, impressions, clickthroughs and dismissals are recorded.
    ///   - source: Where campaigns come from.
    ///   - scheduler: The clock for idle time, visibility timeouts and view time.
    ///   - configuration: Timeouts, the delivery queue and the session that performs delivery decisions.
    ///   - directory: Where the mirrored `cart`, the purchased order ids and the campaigns delivered within the
    ///     duplicate window are kept, in `campaign-tracking.json` (owner-only, replaced atomically, the last 1,000
    ///     order ids), so that all three survive a relaunch; created when first written. A file that cannot be
    ///     read back is moved aside to `campaign-tracking.json.corrupt` and recorded as a
    ///     `CampaignEventType.storageError` event, and tracking starts empty. The file is written behind the caller
    ///     on the manager's writer queue, coalesced to the newest snapshot: no call waits for the disk, and a crash
    ///     loses at most the last few milliseconds of changes, never a damaged file.
    public init(
        reporter: Reporter,
        source: any CampaignSource,
        scheduler: any ActuateScheduler = SystemScheduler.shared,
        configuration: CampaignConfiguration = CampaignConfiguration(),
        directory: URL
    ) {
        engine = CampaignEngine(
            reporter: reporter,
            source: source,
            scheduler: scheduler,
            configuration: configuration,
            trackingStore: CampaignTrackingStore(directory: directory)
        )
        globalContext = CampaignContext(name: "global", id: CampaignDeliveryState.globalID, engine: engine)
    }

    /// Creates the context of a screen; keep it as long as the screen exists.
    ///
    /// The screen has the configuration's visibility timeout to become visible.
    /// - Parameter name: The screen's name, used in events, the timeline and trigger rules.
    /// - Returns: The screen's context.
    public func makeScreen(named name: String) -> CampaignScreen {
        let id = engine.stepWithValue { delivery, _ in delivery.addScreen(named: name) }
        return CampaignScreen(name: name, id: id, engine: engine)
    }

    // MARK: App and user

    /// Tells the manager whether the app is in the foreground; in the background no context is active.
    /// - Parameter inForeground: True when the app entered the foreground, false when it entered the background.
    public func setApplicationInForeground(_ inForeground: Bool) {
        engine.step { delivery, now in delivery.setForeground(inForeground, now: now) }
    }

    /// Whether the app is in the foreground, as last told.
    var isApplicationInForeground: Bool {
        engine.read(\.isInForeground)
    }

    /// Counts a user interaction (a touch, a key press) that is not otherwise tracked, so the user is not idle.
    public func recordUserInteraction() {
        engine.userActivity()
    }

    /// Whether the user has been inactive for longer than the idle threshold.
    var isUserIdle: Bool {
        engine.read(\.isIdle)
    }

    // MARK: Attributes and cart

    /// Sets a user attribute; it travels with the next event recorded.
    /// - Parameters:
    ///   - value: The value, or nil to clear it.
    ///   - name: The attribute's name.
    public func setUserAttribute(_ value: String?, forName name: String) {
        engine.tracking { $0.setUserAttribute(value.map(JSONValue.string) ?? .null, forName: name) }
    }

    /// Sets an account attribute; it travels with the next event recorded.
    /// - Parameters:
    ///   - value: The value, or nil to clear it.
    ///   - name: The attribute's name.
    public func setAccountAttribute(_ value: String?, forName name: String) {
        engine.tracking { $0.setAccountAttribute(value.map(JSONValue.string) ?? .null, forName: name) }
    }

    /// The mirrored cart: what ``CampaignContext/addToCart(_:)``, ``CampaignContext/removeFromCart(_:)`` and
    /// ``CampaignContext/viewCart(_:)`` left in it; a purchase empties it. With a directory it is the same after a
    /// relaunch.
    package var cart: [LineItem] {
        engine.tracking(\.cart)
    }

    /// Drops the global context's handlers. A handler that captures the global context (the documented pattern
    /// calls `trackImpression` on it) is kept by the engine, which the context keeps: without this, a released
    /// manager's engine, timers and held campaigns would never be freed.
    deinit {
        engine.step { delivery, _ in
            delivery.contexts[CampaignDeliveryState.globalID]?.handlers = [:]
            return CampaignEffects()
        }
    }

    // MARK: Settling

    /// Returns once every campaign request, decision and delivery started so far has finished, including the
    /// handlers' calls on the delivery queue, and `campaign-tracking.json` holds what they changed. Tests await it
    /// instead of sleeping, and apps before they are suspended.
    public func waitUntilSettled() async {
        await engine.waitUntilSettled()
    }
}
