import ActuateReporting

/// Receives the campaigns for one target, on the delivery queue (the main queue in apps).
///
/// Capture views weakly: a screen's handlers live until it disappears or its visibility timeout passes.
public typealias CampaignHandler = @Sendable (Campaign) -> Void

/// Where campaigns are delivered and user activity is tracked: the app-wide global context, or a
/// ``CampaignScreen`` with a lifecycle.
///
/// A context is active when its screen is visible (the global context always is), the app is in the
/// foreground and the user is not idle. Handlers registered per target receive campaigns only while the context
/// is active; until then the most recent campaign per target is held.
///
/// ```swift
/// screen.setCampaignHandler({ [weak banner] campaign in
///     guard let banner else { return }
///     if !campaign.isControlGroup { banner.show(campaign.data) }
///     screen.trackImpression(campaign)       // a control impression when the user is in the control group
/// }, forTarget: "product-banner")
/// ```
///
/// The tracking calls (``viewItem(_:actionName:)``, ``addToCart(_:)``, ``trackAction(_:)`` and the rest) record
/// events through the manager's `Reporter` and count as user activity; tracked actions, item views and the item
/// interactions of `ItemInteraction` ask the campaign source for campaigns for this context.
public class CampaignContext: @unchecked Sendable {
    // Safe to share: every stored property is a `let` of a Sendable type, subclasses add none, and all mutable
    // state lives in the engine's Mutex.

    /// The context's name: `global`, or the screen's name.
    package let name: String
    let id: UInt64
    let engine: CampaignEngine

    init(name: String, id: UInt64, engine: CampaignEngine) {
        self.name = name
        self.id = id
        self.engine = engine
    }

    /// Whether campaigns can be delivered now: the screen is visible (always, for the global context), the app
    /// is in the foreground and the user is not idle.
    public var isActive: Bool {
        engine.read { $0.isActive(contextID: id) }
    }

    /// Why the context is not active, or empty when it is.
    var inactivityCauses: [InactivityCause] {
        engine.read { delivery in delivery.contexts[id].map(delivery.inactivityCauses) ?? [.screenNotVisible] }
    }

    /// Registers the handler for a target, or removes it with nil.
    ///
    /// A campaign held for the target is delivered to the new handler at once when the context is active.
    /// Removing a handler keeps held campaigns; they wait for the next handler.
    /// - Parameters:
    ///   - handler: The handler, or nil to remove the current one.
    ///   - target: The target, as in ``Campaign/target``.
    public func setCampaignHandler(_ handler: CampaignHandler?, forTarget target: String) {
        engine.step { delivery, now in delivery.setHandler(handler, target: target, contextID: id, now: now) }
    }
}

/// A context for one screen, with a lifecycle: call ``viewWillAppear()``, ``viewDidAppear()`` and
/// ``viewWillDisappear()`` from the screen's own lifecycle methods.
///
/// A screen is active only while visible. One that does not become visible within the configuration's
/// visibility timeout loses its handlers and held campaigns, and so does one that will disappear. Released, it
/// drops what it held and records the view time it gathered.
public final class CampaignScreen: CampaignContext, @unchecked Sendable {
    // Safe to share for the reason given on CampaignContext: no stored state of its own.

    /// Call just before the screen becomes visible (`viewWillAppear`); register handlers here.
    public func viewWillAppear() {
        engine.step { delivery, _ in delivery.willAppear(id) }
    }

    /// Call when the screen is visible (`viewDidAppear`): held campaigns are delivered if the app and user are
    /// active.
    public func viewDidAppear() {
        engine.step { delivery, now in delivery.didAppear(id, now: now) }
    }

    /// Call when the screen is about to stop being visible (`viewWillDisappear`): handlers and held campaigns
    /// are cleared, and the view time gathered so far is recorded.
    public func viewWillDisappear() {
        engine.step { delivery, now in delivery.willDisappear(id, now: now) }
    }

    deinit {
        let id = self.id
        engine.step { delivery, now in delivery.removeContext(id, now: now) }
    }
}
