import ActuateReporting

/// The lifecycle phase of a context: the global context is always visible; a screen starts not shown.
enum ScreenPhase: Sendable, Hashable {
    case notShown
    case appearing
    case visible
    case disappeared
}

/// What a context is viewing: the view event's type, the item, and the view time gathered so far.
struct ViewState: Sendable {
    var viewType: ReportEventType
    var item: JSONValue
    var actionName: String?
    /// Active time gathered before ``activeSince``.
    var accumulated: Duration = .zero
    /// When the current active stretch began, or nil while the context is inactive.
    var activeSince: Duration?

    /// The view time up to `now`.
    func total(at now: Duration) -> Duration {
        accumulated + (activeSince.map { now - $0 } ?? .zero)
    }

    mutating func pause(at now: Duration) {
        accumulated = total(at: now)
        activeSince = nil
    }
}

/// A view that ended or paused, to be recorded as a `view_time` event.
struct ViewTimeRecord: Sendable {
    var contextName: String
    var view: ViewState
    var duration: Duration
}

/// The delivery state of one context.
struct CampaignContextState: Sendable {
    let name: String
    let isScreen: Bool
    var phase: ScreenPhase
    var handlers: [String: CampaignHandler] = [:]
    var held: [String: Campaign] = [:]
    var lastDelivered: [String: DeliveredCampaign] = [:]
    /// The generation of the armed visibility timer, if one is armed.
    var visibilityTimer: UInt64?
    /// Counts clears (disappearing, visibility timeout), so a delivery decided before a clear is not handed over
    /// after it.
    var clearCount: UInt64 = 0
    /// Why the context was last cleared.
    var lastClearReason: CampaignDecisionReason = .screenDisappeared
    /// Whether the context was active when activity was last evaluated.
    var wasActive = false
    var view: ViewState?

    init(name: String, isScreen: Bool) {
        self.name = name
        self.isScreen = isScreen
        self.phase = isScreen ? .notShown : .visible
    }

    /// Ends the current view, if any, returning its record when it gathered any time.
    mutating func endView(at now: Duration) -> ViewTimeRecord? {
        guard let view else { return nil }
        self.view = nil
        let duration = view.total(at: now)
        return duration > .zero ? ViewTimeRecord(contextName: name, view: view, duration: duration) : nil
    }

    /// Records the time gathered by the current view and starts counting again from zero, keeping the view.
    mutating func flushView(at now: Duration) -> ViewTimeRecord? {
        guard var view else { return nil }
        let duration = view.total(at: now)
        view.accumulated = .zero
        view.activeSince = view.activeSince.map { _ in now }
        self.view = view
        return duration > .zero ? ViewTimeRecord(contextName: name, view: view, duration: duration) : nil
    }
}
