/// The ways an action may be exposed to the system as an activity once it has been performed.
public enum ActivityEligibility: String, Sendable, Hashable, Codable, CaseIterable {
    /// The activity can be performed again by the user from Siri suggestions, and nothing more: on Apple
    /// platforms it makes the `NSUserActivity` eligible for prediction, without search or an invocation phrase.
    case perform
    /// The activity can be continued on another device.
    case handoff
    /// The activity is indexed for on-device search.
    case search
    /// The activity may be indexed publicly.
    case publicIndexing
    /// The system may predict and suggest the activity, and offer it as a shortcut with the action's
    /// ``Action/suggestedInvocationPhrase``; as in Flint, it is made eligible for search too.
    case prediction
}
