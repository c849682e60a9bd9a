/// Why the tracker could not do what was asked.
public enum TrackerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An argument is not valid, such as an empty product id or document name.
    case invalidArgument(name: String, reason: String)
    /// The decision source failed. The cache is kept as it was; `lastGoodResult` is what the tracker last had
    /// (minus suppressed actions), for the app to show instead.
    case decisionFailed(reason: String, lastGoodResult: TrackerResult?)
    /// The tracker's files could not be read or written; it goes on in memory.
    case storageFailed(path: String, reason: String)
    /// A link the user clicked in rendered content was reported, but nothing opened it: the app's router could
    /// not route it, or no router is wired and no `clickedCallback` takes the click.
    case linkNotOpened(href: String, reason: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .invalidArgument(let name, let reason):
            return "Invalid \(name): \(reason)."
        case .decisionFailed(let reason, let lastGoodResult):
            let cache =
                lastGoodResult.map { "the last good result (\($0.actions.count) actions) is kept" }
                ?? "there is no cached result"
            return "The decision source failed: \(reason); \(cache)."
        case .storageFailed(let path, let reason):
            return "The tracker could not use \(path): \(reason)."
        case .linkNotOpened(let href, let reason):
            return "The clicked link \(href.prefix(200)) was not opened: \(reason)."
        }
    }
}

/// What happened to one `report…` call.
public enum ContentReportResult: Sendable, Hashable {
    /// The event was handed to the dispatcher, which records it through the reporting plugin.
    case sent
    /// The same status was already reported for this action in this page view (since the last navigate), so
    /// this one was dropped; `executed` is also dropped once a click or close was reported.
    case duplicate
    /// The action has no tracker, so nothing was recorded.
    case noTracker
    /// The report's argument is not valid (an empty product id, a close count that is not a number).
    case invalid(reason: String)
}
