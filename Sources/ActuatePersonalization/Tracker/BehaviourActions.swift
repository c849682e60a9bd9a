import Actuate
import ActuateReporting
import Dispatch

/// Records one behaviour command as a `behaviour` event through the dispatcher.
///
/// The event's `command` property is the command's ``BehaviourCommand/eventName``, with `document`,
/// `productId`, `articleId` or `field` beside it; user data values are never recorded.
public final class TrackBehaviourAction: ReportedAction {
    public typealias InputType = BehaviourCommand

    public static var description: String { "The user did something the tracker records." }
    public static var queue: DispatchQueue { ContentReportQueue.queue }
    public static var reportEventType: ReportEventType { "behaviour" }

    public static func reportProperties(
        for context: ActionContext<BehaviourCommand>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        var properties: [String: JSONValue] = ["command": .string(context.input.eventName)]
        switch context.input {
        case .navigate(let documentName): properties["document"] = .string(documentName)
        case .product(_, let productId): properties[ReportEventKey.productId] = .string(productId)
        case .article(_, let articleId): properties[ReportEventKey.articleId] = .string(articleId)
        case .userData(let field, _): properties["field"] = .string(field)
        }
        return properties
    }

    public static func perform(
        context: ActionContext<BehaviourCommand>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Records a product purchase as a `purchase` event, which statistics credit to earlier product clicks.
public final class TrackPurchaseAction: ReportedAction {
    public typealias InputType = BehaviourCommand

    public static var description: String { "The user bought a product." }
    public static var queue: DispatchQueue { ContentReportQueue.queue }
    public static var reportEventType: ReportEventType { .purchase }

    public static func reportProperties(
        for context: ActionContext<BehaviourCommand>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        guard case .product(.purchased, let productId) = context.input else { return [:] }
        return EventProperties.purchase(productIds: [productId])
            .merging(["command": .string(context.input.eventName)]) { first, _ in first }
    }

    public static func perform(
        context: ActionContext<BehaviourCommand>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// The input of ``SuppressContentAction``: the action held back and the sessions it stays hidden.
public struct SuppressedContentInput: Loggable, Hashable {
    /// The action held back.
    public var content: ContentReference
    /// The sessions after the current one that it stays hidden.
    public var remainingSessions: Int

    /// Creates an input.
    /// - Parameters:
    ///   - content: The action held back.
    ///   - remainingSessions: The sessions after the current one that it stays hidden.
    public init(content: ContentReference, remainingSessions: Int) {
        self.content = content
        self.remainingSessions = remainingSessions
    }

    public var loggingDescription: String { "\(content) dont-show \(remainingSessions)" }
}

/// Records that an action the source returned was held back because the user closed it (`dont-show`).
public final class SuppressContentAction: ReportedAction {
    public typealias InputType = SuppressedContentInput

    public static var description: String { "An action was not shown because the user closed it earlier." }
    public static var queue: DispatchQueue { ContentReportQueue.queue }
    public static var reportEventType: ReportEventType { "dont-show" }

    public static func reportProperties(
        for context: ActionContext<SuppressedContentInput>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        EventProperties.content(context.input.content)
            .merging([ReportEventKey.dontShowSessions: .number(Double(context.input.remainingSessions))]) { a, _ in a }
    }

    public static func perform(
        context: ActionContext<SuppressedContentInput>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}
