/// The ways an action may be exposed to the system as an activity once it has been performed.
public enum ActivityEligibility: String, Sendable, Hashable, Codable, CaseIterable {
    /// The activity can be performed again by the user, for example from Siri suggestions.
    case perform
    /// The activity can be continued on another device.
    case handoff
    /// The activity is indexed for on-device search.
    case search
    /// The activity may be indexed publicly.
    case publicIndexing
    /// The system may predict and suggest the activity.
    case prediction
}
