/// A named stream of actions, such as the UI's or a background sync's, performed through one dispatcher.
///
/// Sessions name where actions ran in the timeline, action stacks and analytics. ``main`` serves the app's
/// UI; tests create their own on their own dispatcher.
public final class ActionSession: Sendable {
    /// The app's main session, on the shared dispatcher.
    public static let main = ActionSession(named: "main", dispatcher: .shared)

    /// The session's name.
    public let name: String
    /// The dispatcher that performs the session's actions.
    public let dispatcher: ActionDispatcher

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - name: The name shown in the timeline and debug reports.
    ///   - dispatcher: The dispatcher that performs its actions; the shared one by default.
    public init(named name: String, dispatcher: ActionDispatcher = .shared) {
        self.name = name
        self.dispatcher = dispatcher
    }
}
