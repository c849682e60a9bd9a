import Actuate
import ActuateReporting
import Dispatch

/// The input of the actions that record what happened to a piece of content: the content and the event.
struct ContentReportInput: Loggable, Hashable {
    /// The content the event happened to.
    var content: ContentReference
    /// What happened.
    var event: ContentEvent

    /// Creates an input.
    /// - Parameters:
    ///   - content: The content the event happened to.
    ///   - event: What happened.
    init(content: ContentReference, event: ContentEvent) {
        self.content = content
        self.event = event
    }

    /// The content, the status and its argument, for example `action:7 "Spring banner" close 2`; error
    /// messages are cut to 60 characters.
    var loggingDescription: String {
        let base = "\(content) \(event.status.rawValue)"
        switch event {
        case .executed: return base
        case .target(let href): return href.map { "\(base) \($0)" } ?? base
        case .close(let sessions): return "\(base) \(max(0, sessions))"
        case .product(let productID): return "\(base) \(productID)"
        case .article(let articleID): return "\(base) \(articleID)"
        case .error(let message):
            return "\(base) \(message.count > 60 ? String(message.prefix(59)) + "…" : message)"
        }
    }
}

/// An action that records one `ContentStatus` for a piece of content through the dispatcher, so the event
/// reaches the timeline, action stacks, analytics and, through `ReportingPlugin`, the reporter.
///
/// The body does nothing but succeed: the event is recorded by the plugins that observe the dispatch.
protocol ContentReportAction: ReportedAction
where InputType == ContentReportInput, PresenterType == NoPresenter {
    /// The status the action records.
    static var status: ContentStatus { get }
}

extension ContentReportAction {
    static var queue: DispatchQueue { ContentReportQueue.queue }

    static var reportEventType: ReportEventType { ReportEventType(status) }

    static var analyticsID: String? { "content_\(status.rawValue)" }

    static func analyticsAttributes<F: FeatureDefinition>(
        forRequest request: ActionRequest<F, Self>
    ) -> [String: AnalyticsValue]? {
        let content = request.context.input.content
        var attributes: [String: AnalyticsValue] = [
            "contentSource": .string(content.source.rawValue),
            "contentId": .string(content.id),
            "status": .string(status.rawValue),
        ]
        if let name = content.name { attributes["contentName"] = .string(name) }
        return attributes
    }

    /// The content event's properties (source, id, name, status and the event's own fields), for the
    /// reporting plugin.
    ///
    /// - Parameters:
    ///   - context: The request's context, holding the content and the event.
    ///   - outcome: How the action ended.
    /// - Returns: The event's properties.
    static func reportProperties(
        for context: ActionContext<ContentReportInput>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        EventProperties.content(context.input.event, for: context.input.content)
    }

    /// Completes at once: the reporting plugin records the event when the action completes.
    ///
    /// - Parameters:
    ///   - context: The request's context.
    ///   - presenter: None.
    ///   - completion: The completion requirement.
    /// - Returns: The completed status.
    static func perform(
        context: ActionContext<ContentReportInput>,
        presenter: NoPresenter,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Records that content was shown (`executed`).
final class ShowContentAction: ContentReportAction {
    static var status: ContentStatus { .executed }
    static var description: String { "Content was shown to the user." }
}

/// Records a click on the content's main target (`target`).
final class ClickContentAction: ContentReportAction {
    static var status: ContentStatus { .target }
    static var description: String { "The user clicked the content's main target." }
}

/// Records that the user closed the content (`close`), with the sessions not to show it.
final class CloseContentAction: ContentReportAction {
    static var status: ContentStatus { .close }
    static var description: String { "The user closed the content." }
}

/// Records a click on a product inside the content (`product`).
final class ClickContentProductAction: ContentReportAction {
    static var status: ContentStatus { .product }
    static var description: String { "The user clicked a product inside the content." }
}

/// Records a click on an article inside the content (`article`).
final class ClickContentArticleAction: ContentReportAction {
    static var status: ContentStatus { .article }
    static var description: String { "The user clicked an article inside the content." }
}

/// Records that presenting the content failed (`error`).
final class ReportContentErrorAction: ContentReportAction {
    static var status: ContentStatus { .error }
    static var description: String { "Presenting the content failed." }
}

/// The serial queue the personalization actions run on, off the main queue.
enum ContentReportQueue {
    static let queue = DispatchQueue(label: "actuate.personalization.content-reports")
}
