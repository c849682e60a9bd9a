import Foundation

/// Hears about every URL a ``URLRouter`` was asked to open, once the router knows what happened.
///
/// Observers are called on the task that opened the URL, after the routed action has completed, in the order
/// they were added. An observer that does I/O hands the opening to its own queue and returns at once.
///
/// <!-- readme: package-only -->
/// ```swift
/// final class BrokenLinkLog: URLRouteObserver {
///     func urlRouter(_ router: URLRouter, didOpen opening: URLOpening) {
///         if case .noMatch = opening.result { print("no route for", opening.url.path) }
///     }
/// }
/// system.router.add(observer: BrokenLinkLog())
/// ```
package protocol URLRouteObserver: AnyObject, Sendable {
    /// Receives one opened URL.
    ///
    /// - Parameters:
    ///   - router: The router that opened it.
    ///   - opening: The URL, the route it matched, and what happened.
    func urlRouter(_ router: URLRouter, didOpen opening: URLOpening)
}

/// One URL a ``URLRouter`` was asked to open, and what happened.
package struct URLOpening: Sendable {
    /// The URL as given, query included; observers that keep it decide what of it is safe to keep.
    package var url: URL
    /// The route it matched, or nil when the scope is unsupported, no route matched, or the task was cancelled
    /// before routing.
    package var match: URLRouteMatch?
    /// The name of the session the action was (or would have been) performed in.
    package var sessionName: String
    /// Whether the user opened the link.
    package var userInitiated: Bool
    /// What happened.
    package var result: URLRouteResult

    /// Creates an opening.
    ///
    /// - Parameters:
    ///   - url: The URL as given.
    ///   - match: The route it matched, if any.
    ///   - sessionName: The session's name.
    ///   - userInitiated: Whether the user opened the link.
    ///   - result: What happened.
    init(url: URL, match: URLRouteMatch?, sessionName: String, userInitiated: Bool, result: URLRouteResult) {
        self.url = url
        self.match = match
        self.sessionName = sessionName
        self.userInitiated = userInitiated
        self.result = result
    }
}
