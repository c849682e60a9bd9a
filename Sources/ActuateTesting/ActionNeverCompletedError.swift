/// The failure ``ActionTestHarness`` returns for an action that did not complete within its real-time limit.
public struct ActionNeverCompletedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The action's display name.
    public let actionName: String
    /// The request's unique identifier, if the action was declared.
    package let requestID: UInt64?
    /// How long the harness waited, in real time.
    package let limit: Duration

    public var description: String {
        let request = requestID.map { " (request #\($0))" } ?? ""
        return "'\(actionName)'\(request) never completed within \(limit)."
    }
}
