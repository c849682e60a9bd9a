import ActuateReporting

/// What a step of ``CampaignDeliveryState`` asks its driver to do, outside the lock.
struct CampaignEffects: Sendable {
    /// A decision to perform through the dispatcher; deliveries carry the ticket to hand over.
    struct Decision: Sendable {
        var decision: CampaignDecision
        var ticket: DeliveryTicket?
    }

    /// Work to schedule on the injected clock.
    enum Timer: Sendable, Hashable {
        case visibility(contextID: UInt64, generation: UInt64)
        case idleCheck(after: Duration)
    }

    var decisions: [Decision] = []
    var viewTimes: [ViewTimeRecord] = []
    var timers: [Timer] = []

    static func += (lhs: inout CampaignEffects, rhs: CampaignEffects) {
        lhs.decisions += rhs.decisions
        lhs.viewTimes += rhs.viewTimes
        lhs.timers += rhs.timers
    }
}

/// A campaign on its way to a handler: checked again on the delivery queue before the handler runs.
struct DeliveryTicket: Sendable {
    var contextID: UInt64
    var campaign: Campaign
    var clearCount: UInt64
    var previousDelivered: DeliveredCampaign?
}

/// The outcome of handing a delivery ticket over on the delivery queue.
enum HandOver: Sendable {
    case deliver(CampaignHandler)
    case notDelivered(CampaignNotDelivered)
}

/// A campaign delivered to a context and target, and when (on the manager's uptime clock).
struct DeliveredCampaign: Sendable, Hashable {
    var campaign: Campaign
    var at: Duration
}
