import Dispatch

/// An action: a unit of app logic with an input, a presenter and a body, declared with static members only.
///
/// An action holds no state. It receives everything it needs in its ``ActionContext`` and drives its
/// presenter. The dispatcher runs its body on ``queue`` and requires it to say, exactly once, how it ended.
///
/// <!-- readme: repeats README.md -->
/// ```swift
/// final class AddItemAction: Action {
///     typealias InputType = String            // anything Loggable; NoInput when there is none
///     typealias PresenterType = any CartPresenter
///
///     static func perform(context: ActionContext<String>, presenter: any CartPresenter, completion: Completion)
///         -> Completion.Status {
///         presenter.showCart([context.input])
///         return completion.completedSync(.success)
///     }
/// }
/// ```
///
/// For bodies that `await`, conform to ``AsyncAction`` instead; for bodies that drive a `@MainActor`
/// presenter, to ``UIAction``.
public protocol Action: SendableMetatype {
    /// The type of the input the action takes. Use ``NoInput`` for none.
    associatedtype InputType: Loggable = NoInput
    /// The type of the presenter (UI) the action drives. Use ``NoPresenter`` for none.
    associatedtype PresenterType: Sendable = NoPresenter
    /// The completion requirement type of every action.
    typealias Completion = CompletionRequirement<ActionPerformOutcome>

    /// The display name. The default splits the type name at CamelCase boundaries and removes a trailing
    /// `Action`, so `CreateNewTweetAction` gives "Create New Tweet" and `OpenURLAction` gives "Open URL".
    static var name: String { get }
    /// A description for catalogs and debug tools. The default, `ActionDescription.missing`
    /// (`"No description"`), says that none was written, and ``ActionCatalog`` flags the action.
    static var description: String { get }
    /// The serial queue the body runs on. The default is the main queue.
    ///
    /// Return the same queue every time, from a `static let`: the dispatcher attaches a marker to each queue it
    /// runs bodies on, and a queue and its marker are kept for the life of the process, so a queue made anew on
    /// every call would be kept once per dispatch.
    static var queue: DispatchQueue { get }
    /// The session a binding's `perform` uses when no session is given. The default is ``ActionSession/main``.
    static var defaultSession: ActionSession? { get }
    /// Whether the timeline leaves the action out. The default is `false`.
    static var hideFromTimeline: Bool { get }
    /// The identifier analytics events use. The default, `nil`, sends no analytics.
    static var analyticsID: String? { get }
    /// Attributes for the analytics events of one request. The default is `nil`.
    static func analyticsAttributes<F: FeatureDefinition>(
        forRequest request: ActionRequest<F, Self>
    ) -> [String: AnalyticsValue]?
    /// How the action is exposed as an activity after it succeeds. The default is empty: no activity.
    static var activityEligibility: Set<ActivityEligibility> { get }
    /// Fills in the activity published after the action succeeds. Throw or call
    /// ``ActivityBuilder/cancel()`` to publish nothing.
    static func prepareActivity(_ activity: ActivityBuilder<Self>) throws
    /// A phrase to suggest when the user adds the action as a voice shortcut.
    static var suggestedInvocationPhrase: String? { get }

    /// Performs the action.
    ///
    /// - Parameters:
    ///   - context: The input and the circumstances of this request.
    ///   - presenter: The presenter to drive.
    ///   - completion: The requirement to complete exactly once.
    /// - Returns: The status from ``CompletionRequirement/completedSync(_:)`` or
    ///   ``CompletionRequirement/willCompleteAsync()``.
    static func perform(
        context: ActionContext<InputType>,
        presenter: PresenterType,
        completion: Completion
    ) -> Completion.Status
}

extension Action {
    public static var name: String {
        TypeNaming.displayName(of: self, removingSuffix: "Action")
    }

    public static var description: String { ActionDescription.missing }

    public static var queue: DispatchQueue { .main }

    public static var defaultSession: ActionSession? { .main }

    public static var hideFromTimeline: Bool { false }

    public static var analyticsID: String? { nil }

    public static func analyticsAttributes<F: FeatureDefinition>(
        forRequest request: ActionRequest<F, Self>
    ) -> [String: AnalyticsValue]? {
        nil
    }

    public static var activityEligibility: Set<ActivityEligibility> { [] }

    public static func prepareActivity(_ activity: ActivityBuilder<Self>) throws {}

    public static var suggestedInvocationPhrase: String? { nil }
}
