import Actuate
import ActuateReporting
import Dispatch

/// Records one behaviour command as a `behaviour` event through the dispatcher.
///
/// The event's `command` property is the command's ``BehaviourCommand/eventName``, with `document`,
/// `productId`, `articleId` or `field` beside it; user data values are never recorded.
final class TrackBehaviourAction: ReportedAction {
    typealias InputType = BehaviourCommand

    static var description: String { "The user did something the tracker records." }
    static var queue: DispatchQueue { ContentReportQueue.queue }
    static var reportEventType: ReportEventType { "behaviour" }

    static func reportProperties(
        for context: ActionContext<BehaviourCommand>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        var properties: [String: JSONValue] = ["command": .string(context.input.eventName)]
        switch context.input {
        case .navigate(let documentName): properties["document"] = .string(documentName)
        case .product(_, let productID): properties[ReportEventKey.productID] = .string(productID)
        case .article(_, let articleID): properties[ReportEventKey.articleID] = .string(articleID)
        case .userData(let field, _): properties["field"] = .string(field)
        }
        return properties
    }

    static func perform(
        context: ActionContext<BehaviourCommand>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Records a product purchase as a `purchase` event, which statistics credit to earlier product clicks.
final class TrackPurchaseAction: ReportedAction {
    typealias InputType = BehaviourCommand

    static var description: String { "The user bought a product." }
    static var queue: DispatchQueue { ContentReportQueue.queue }
    static var reportEventType: ReportEventType { .purchase }

    static func reportProperties(
        for context: ActionContext<BehaviourCommand>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        guard case .product(.purchased, let productID) = context.input else { return [:] }
        return EventProperties.purchase(productIDs: [productID])
            .merging(["command": .string(context.input.eventName)]) { first, _ in first }
    }

    static func perform(
        context: ActionContext<BehaviourCommand>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// The input of ``SuppressContentAction``: the action held back and the sessions it stays hidden.
struct SuppressedContentInput: Loggable, Hashable {
    /// The action held back.
    var content: ContentReference
    /// The sessions after the current one that it stays hidden.
    var remainingSessions: Int

    /// Creates an input.
    /// - Parameters:
    ///   - content: The action held back.
    ///   - remainingSessions: The sessions after the current one that it stays hidden.
    init(content: ContentReference, remainingSessions: Int) {
        self.content = content
        self.remainingSessions = remainingSessions
    }

    var loggingDescription: String { "\(content) dont-show \(remainingSessions)" }
}

/// Records that an action the source returned was held back because the user closed it (`dont-show`).
final class SuppressContentAction: ReportedAction {
    typealias InputType = SuppressedContentInput

    static var description: String { "An action was not shown because the user closed it earlier." }
    static var queue: DispatchQueue { ContentReportQueue.queue }
    static var reportEventType: ReportEventType { "dont-show" }

    static func reportProperties(
        for context: ActionContext<SuppressedContentInput>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        EventProperties.content(context.input.content)
            .merging([ReportEventKey.dontShowSessions: .number(Double(context.input.remainingSessions))]) { a, _ in a }
    }

    static func perform(
        context: ActionContext<SuppressedContentInput>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}
