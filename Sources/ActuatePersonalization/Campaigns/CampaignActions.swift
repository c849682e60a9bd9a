import Actuate
import ActuateReporting
import Dispatch

/// The serial queue the campaign decision actions run on.
enum CampaignActionQueue {
    static let queue = DispatchQueue(label: "actuate.personalization.campaigns")
}

/// The actions that put campaign delivery in the timeline. Each records one ``CampaignDecision``; the deliver
/// action also hands the campaign to its handler. With ``ActuateReporting/ReportingPlugin`` installed they are
/// recorded as `campaign_delivered`, `campaign_held` and `campaign_dropped` events.
protocol CampaignDecisionAction: ReportedAction where InputType == CampaignDecision {}

extension CampaignDecisionAction {
    static var queue: DispatchQueue { CampaignActionQueue.queue }

    static func reportProperties(
        for context: ActionContext<CampaignDecision>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        var properties = context.input.campaign.eventProperties
        properties[CampaignEventKey.context] = .string(context.input.contextName)
        properties["reason"] = .string(context.input.reason.description)
        return properties
    }
}

extension CampaignDecisionAction where PresenterType == NoPresenter {
    /// Completes at once: the hold and drop actions only put their decision in the timeline.
    static func perform(
        context: ActionContext<CampaignDecision>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Hands a campaign to its handler on the delivery queue, after checking that the context is still active.
final class DeliverCampaignAction: CampaignDecisionAction {
    typealias InputType = CampaignDecision
    typealias PresenterType = CampaignHandOver

    static var description: String { "Hands a campaign to the handler its context registered for its target." }
    static var reportEventType: ReportEventType { "campaign_delivered" }

    static func perform(
        context: ActionContext<CampaignDecision>,
        presenter: CampaignHandOver,
        completion: Completion
    ) -> Completion.Status {
        let status = completion.willCompleteAsync()
        presenter.queue.async {
            status.completed(presenter.run())
        }
        return status
    }
}

/// Records that a campaign is held until its context can show it.
final class HoldCampaignAction: CampaignDecisionAction {
    typealias InputType = CampaignDecision

    static var description: String { "Keeps a campaign until its context is active and has a handler." }
    static var reportEventType: ReportEventType { "campaign_held" }
}

/// Records that a campaign was discarded.
final class DropCampaignAction: CampaignDecisionAction {
    typealias InputType = CampaignDecision

    static var description: String { "Discards a campaign: a duplicate, a replaced held one, or a cleared screen's." }
    static var reportEventType: ReportEventType { "campaign_dropped" }
}

/// A purchase ignored because its order id was purchased before (a repeated delivery of the same purchase): the
/// input of "Ignore Purchase".
struct IgnoredPurchase: Loggable, Sendable, Hashable {
    /// The order id that was purchased before.
    var orderID: String
    /// The name of the context the purchase was tracked in.
    var contextName: String

    /// Why it was ignored, as the timeline and the `purchase_ignored` event give it.
    static let reason = "repeatedOrderID"

    var loggingDescription: String { "order \(orderID) in \(contextName): the order id was purchased before" }
}

/// Puts a purchase that was ignored in the timeline, with its reason, the way campaign drops are recorded; with
/// ``ActuateReporting/ReportingPlugin`` installed it is a `purchase_ignored` event.
final class IgnorePurchaseAction: ReportedAction {
    typealias InputType = IgnoredPurchase

    static var queue: DispatchQueue { CampaignActionQueue.queue }
    static var description: String { "Ignores a purchase whose order id was purchased before." }
    static var reportEventType: ReportEventType { "purchase_ignored" }

    static func reportProperties(
        for context: ActionContext<IgnoredPurchase>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        [
            "orderId": .string(context.input.orderID),
            CampaignEventKey.context: .string(context.input.contextName),
            "reason": .string(IgnoredPurchase.reason),
        ]
    }

    static func perform(
        context: ActionContext<IgnoredPurchase>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// The presenter of ``DeliverCampaignAction``: the delivery queue, and the hand-over that checks the context
/// and calls the handler, giving the action's outcome.
struct CampaignHandOver: Sendable {
    var queue: DispatchQueue
    var run: @Sendable () -> ActionPerformOutcome
}

extension PersonalizationFeature {
    static let deliverCampaign = action(DeliverCampaignAction.self)
    static let holdCampaign = action(HoldCampaignAction.self)
    static let dropCampaign = action(DropCampaignAction.self)
    static let ignorePurchase = action(IgnorePurchaseAction.self)

    /// Declares the campaign delivery actions.
    static func declareCampaignActions(_ actions: FeatureActionsBuilder) {
        actions.declare(deliverCampaign)
        actions.declare(holdCampaign)
        actions.declare(dropCampaign)
        actions.declare(ignorePurchase)
    }
}
