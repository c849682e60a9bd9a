import Actuate
import ActuateReporting
import Dispatch

/// An action that records one ``ContentBlockEvent`` through the `Reporter` it is given as its presenter, so
/// showing, clicking, closing and errors pass through the dispatcher: the timeline, action stacks and debug
/// report show them.
///
/// The body records the event with the event's own consent rule (see ``ContentBlockEvent``). It fails only
/// when the reporter could not store the event; an event held back by consent is a success.
protocol ContentBlockTrackingAction: Action
where InputType == ContentBlockEvent, PresenterType == Reporter {}

extension ContentBlockTrackingAction {
    /// A private serial queue of the content-block actions, so that recording never runs on the main queue.
    static var queue: DispatchQueue { ContentBlockActionQueue.queue }

    /// Records the event on `presenter`, failing only when the reporter could not store it.
    ///
    /// - Parameters:
    ///   - context: The request's context, holding the event.
    ///   - presenter: The reporter that records the event.
    ///   - completion: The completion requirement.
    /// - Returns: The completed status.
    static func perform(
        context: ActionContext<ContentBlockEvent>,
        presenter: Reporter,
        completion: Completion
    ) -> Completion.Status {
        if case .failed(let error) = context.input.record(on: presenter) {
            return completion.completedSync(.failure(error: error))
        }
        return completion.completedSync(.success)
    }
}

/// Records that a content block was shown.
final class ShowContentBlockAction: ContentBlockTrackingAction {
    static var description: String { "A content block was shown in a placeholder." }
}

/// Records a click on an action inside a content block.
final class ClickContentBlockAction: ContentBlockTrackingAction {
    static var description: String { "The user clicked an action in a content block." }
}

/// Records that a content block was closed.
final class CloseContentBlockAction: ContentBlockTrackingAction {
    static var description: String { "A content block was closed." }
}

/// Records that showing a content block failed.
final class ReportContentBlockErrorAction: ContentBlockTrackingAction {
    static var description: String { "Showing a content block failed." }
}

/// The serial queue the content-block tracking actions run on, off the main queue.
enum ContentBlockActionQueue {
    static let queue = DispatchQueue(label: "actuate.personalization.content-blocks.tracking")
}
