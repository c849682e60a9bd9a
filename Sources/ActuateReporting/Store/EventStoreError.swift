import Foundation

/// Why an ``EventStore`` could not do what was asked.
public enum EventStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process holds the store's lock file, or another ``FileEventStore`` of this process does (then
    /// `ownerPID` is this process's id, and the description says so).
    case lockedByAnotherProcess(directory: String, ownerPID: Int32?)
    /// The directory is missing and could not be created, or is not writable.
    case directoryUnavailable(path: String, reason: String)
    /// An event could not be encoded.
    case encodingFailed(reason: String)
    /// An event is larger than a whole segment and can never be stored.
    case eventTooLarge(bytes: Int, limit: Int)
    /// A read or write failed.
    case ioFailed(path: String, reason: String)
    /// The store was closed.
    case closed
    /// The store refuses a path it was asked to use: a store file that is a symbolic link or not a regular file,
    /// or a store directory that is a symbolic link, belongs to another user, or is writable by its group or by
    /// others. Nothing at the path, or at what a link points to, was changed.
    case unsafeFile(path: String, reason: String)
    /// The store's configuration cannot work, for example a total cap smaller than two segments.
    case invalidConfiguration(reason: String)

    public var description: String {
        switch self {
        case .lockedByAnotherProcess(let directory, let pid) where pid == getpid():
            return "The event store at \(directory) is already open in this process: close the other "
                + "FileEventStore on it first (FileEventStore.close()), as a relaunch in a test must."
        case .lockedByAnotherProcess(let directory, let pid):
            let owner = pid.map { " (process \($0))" } ?? ""
            return "The event store at \(directory) is already open in another process\(owner)."
        case .directoryUnavailable(let path, let reason):
            return "The event store directory \(path) is unavailable: \(reason)."
        case .encodingFailed(let reason):
            return "The event could not be encoded: \(reason)."
        case .eventTooLarge(let bytes, let limit):
            return "The event is \(bytes) bytes, larger than the \(limit)-byte segment limit."
        case .ioFailed(let path, let reason):
            return "Reading or writing \(path) failed: \(reason)."
        case .closed:
            return "The event store is closed."
        case .unsafeFile(let path, let reason):
            return "The event store refuses \(path): \(reason)."
        case .invalidConfiguration(let reason):
            return "The event store configuration is invalid: \(reason)."
        }
    }
}
