/// Why the reporting layer could not do what was asked. None of these stops the app; they are returned,
/// thrown, or passed to a diagnostics handler.
public enum ReportingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A content status name is not one of ``ContentStatus``'s.
    case unknownContentStatus(String)
    /// A content status's argument is not valid for it.
    case invalidContentArgument(status: ContentStatus, argument: String, reason: String)
    /// An event type cannot be recorded by apps, or an event lacks what its type needs.
    case invalidEvent(type: String, reason: String)
    /// A user id is not valid (it is empty).
    case invalidUserID
    /// The stored identity could not be read; a new anonymous id was created in its place.
    case corruptIdentity(path: String, reason: String)
    /// The identity could not be saved; it stays in memory for this launch.
    case identityStorageFailed(path: String, reason: String)
    /// The store refused an event.
    case appendFailed(type: String, reason: String)
    /// The store could not be read or changed for another reason.
    case storeFailed(operation: String, reason: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .unknownContentStatus(let status):
            let known = ContentStatus.allCases.map(\.rawValue).joined(separator: ", ")
            return "Unknown content status \"\(status)\"; expected one of \(known)."
        case .invalidContentArgument(let status, let argument, let reason):
            return "Invalid argument \"\(argument)\" for content status \(status.rawValue): \(reason)."
        case .invalidEvent(let type, let reason):
            return "Cannot record event \"\(type)\": \(reason)."
        case .invalidUserID:
            return "The user id is empty."
        case .corruptIdentity(let path, let reason):
            return "The stored identity at \(path) is unreadable (\(reason)); a new anonymous id was created."
        case .identityStorageFailed(let path, let reason):
            return "The identity could not be saved to \(path): \(reason)."
        case .appendFailed(let type, let reason):
            return "The event store refused a \"\(type)\" event: \(reason)."
        case .storeFailed(let operation, let reason):
            return "The event store failed to \(operation): \(reason)."
        }
    }
}
