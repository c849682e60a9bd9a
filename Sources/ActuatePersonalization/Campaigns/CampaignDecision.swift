import Actuate

/// What a campaign context did with a campaign, and why: the input of the actions that put campaign delivery
/// in the timeline ("Deliver Campaign", "Hold Campaign", "Drop Campaign").
struct CampaignDecision: Loggable, Sendable, Hashable {
    /// What was done with the campaign.
    enum Verdict: String, Sendable, Hashable, Codable {
        /// Handed to the handler for its target.
        case deliver
        /// Kept until the context is active and has a handler for its target.
        case hold
        /// Discarded.
        case drop
    }

    /// What was done.
    var verdict: Verdict
    /// The campaign.
    var campaign: Campaign
    /// The name of the context (`global` or a screen's name).
    var contextName: String
    /// Why.
    var reason: CampaignDecisionReason

    /// Creates a decision.
    /// - Parameters:
    ///   - verdict: What was done.
    ///   - campaign: The campaign.
    ///   - contextName: The context's name.
    ///   - reason: Why.
    init(verdict: Verdict, campaign: Campaign, contextName: String, reason: CampaignDecisionReason) {
        self.verdict = verdict
        self.campaign = campaign
        self.contextName = contextName
        self.reason = reason
    }

    /// The campaign, the context and the reason, for example
    /// `campaign "Summer sale" (summer) for target "banner" in Product: the screen is not visible`. The
    /// campaign's data is left out.
    var loggingDescription: String {
        "\(campaign) in \(contextName): \(reason)"
    }
}

/// Why a campaign was delivered, held or dropped.
enum CampaignDecisionReason: Sendable, Hashable, CustomStringConvertible {
    /// Delivered at once: the context is active and has a handler for the target.
    case contextActive
    /// Delivered when a handler was set for the target of a held campaign.
    case handlerSet
    /// Delivered when the context became active.
    case contextBecameActive(ActivityChange)
    /// Held: the context is not active, for these reasons.
    case contextInactive([InactivityCause])
    /// Held: the context is active but has no handler for the target.
    case noHandler
    /// Dropped: identical to the campaign last delivered to this context and target.
    case duplicate
    /// Dropped: identical to the campaign already held for this target.
    case alreadyHeld
    /// Dropped: a newer campaign for the same target replaced it while held.
    case replaced(by: Campaign)
    /// Dropped: the screen did not become visible in time, and lost its handlers and held campaigns.
    case visibilityTimeout(Duration)
    /// Dropped: the screen will disappear, which clears its handlers and held campaigns.
    case screenDisappeared
    /// Dropped: the screen context was released.
    case contextReleased

    var description: String {
        switch self {
        case .contextActive: "the context is active and has a handler for the target"
        case .handlerSet: "a handler was set for the target"
        case .contextBecameActive(let change): "the context became active (\(change))"
        case .contextInactive(let causes): causes.map(\.description).joined(separator: ", ")
        case .noHandler: "no handler for the target"
        case .duplicate: "identical to the campaign last delivered to this target"
        case .alreadyHeld: "identical to the campaign already held for this target"
        case .replaced(let newer): "replaced by a newer \(newer)"
        case .visibilityTimeout(let timeout): "the screen did not become visible within \(Self.seconds(timeout))"
        case .screenDisappeared: "the screen will disappear"
        case .contextReleased: "the screen context was released"
        }
    }

    /// `5 s` for whole seconds, `0.25 s` otherwise.
    private static func seconds(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int64(seconds)) s" : "\(seconds) s"
    }
}

/// Why a context is not active.
enum InactivityCause: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The screen is not visible.
    case screenNotVisible
    /// The app is in the background.
    case appInBackground
    /// The user has been idle longer than the idle threshold.
    case userIdle

    var description: String {
        switch self {
        case .screenNotVisible: "the screen is not visible"
        case .appInBackground: "the app is in the background"
        case .userIdle: "the user is idle"
        }
    }
}

/// What made contexts active again.
enum ActivityChange: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The screen appeared.
    case screenAppeared
    /// The app came to the foreground.
    case appForeground
    /// The user was active again after being idle.
    case userActive

    var description: String {
        switch self {
        case .screenAppeared: "the screen appeared"
        case .appForeground: "the app came to the foreground"
        case .userActive: "the user is active again"
        }
    }
}

/// Why a campaign chosen for delivery did not reach its handler after all: between the decision and the
/// moment the handler was due to run on the delivery queue, the context changed.
struct CampaignNotDelivered: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened to the campaign instead: ``CampaignDecision/Verdict/hold`` or
    /// ``CampaignDecision/Verdict/drop``.
    var verdict: CampaignDecision.Verdict
    /// Why.
    var reason: CampaignDecisionReason

    var description: String {
        "not delivered, \(verdict == .hold ? "held" : "dropped") instead: \(reason)"
    }
}
