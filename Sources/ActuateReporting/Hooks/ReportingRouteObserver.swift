import Actuate
import Foundation

/// Records how users arrive: every URL a `URLRouter` opens (`url_opened`) and every activity an
/// `ActivityRouter` continues (`activity_continued`), with what happened, so that statistics can show arrivals
/// and the links that are broken.
///
/// `url_opened` carries `url` (scheme, host, port and path only: the query, fragment and credentials may hold
/// private values and are never stored), `result` and, by result:
///
/// | `result` | meaning | also |
/// |---|---|---|
/// | `performed` | a route matched and its action ran | `outcome`, `error` for a failure |
/// | `noMatch` | the scheme or host is the app's, but no route matches the path | |
/// | `unsupportedScope` | the scheme or host is not one the router answers | |
/// | `badParameter` | a route matched, but a parameter could not become the input | `parameter` (its name) |
/// | `unavailable` | the route's feature is a conditional feature that is unavailable | |
/// | `presenterUnavailable` | the app had no presenter for the action | |
/// | `cancelled` | the task or the action was cancelled | |
///
/// plus `pattern`, `action` and `feature` when a route matched, `session` and `userInitiated`.
/// `activity_continued` carries `activityType`, `session` and `result`: `performed` (with `outcome` and `error`),
/// `noMatch` or `badInput` (with `error`); never the activity's user info.
///
/// A URL whose query has `forceTrackingParameter` set to `true` (or `1`, `yes`) is recorded whatever the
/// tracking consent, tagged `tracking_forced`. The reporting layer names no such parameter itself: the module
/// whose links carry one passes it in (ActuatePersonalization's content blocks use
/// `ContentBlockConfiguration.defaultForceTrackParameter`).
///
/// <!-- readme: package-only -->
/// ```swift
/// let arrivals = ReportingRouteObserver(reporter: reporter)
/// system.router.add(observer: arrivals)
/// activityRouter.add(observer: arrivals)
/// ```
package final class ReportingRouteObserver: URLRouteObserver, ActivityContinuationObserver {
    /// The query item that forces tracking of the opening of the URL that carries it; nil (the default) to never
    /// force.
    package let forceTrackingParameter: String?
    private let reporter: Reporter

    /// Creates the observer.
    ///
    /// - Parameters:
    ///   - reporter: Where events are recorded.
    ///   - forceTrackingParameter: The query item that forces tracking; nil to never force.
    package init(reporter: Reporter, forceTrackingParameter: String? = nil) {
        self.reporter = reporter
        self.forceTrackingParameter = forceTrackingParameter
    }

    package func urlRouter(_ router: URLRouter, didOpen opening: URLOpening) {
        var properties: [String: JSONValue] = [
            ReportEventKey.url: .string(Self.reportableURL(opening.url)),
            ReportEventKey.session: .string(opening.sessionName),
            ReportEventKey.userInitiated: .bool(opening.userInitiated),
        ]
        if let match = opening.match {
            properties[ReportEventKey.pattern] = .string(match.pattern)
            properties[ReportEventKey.action] = .string(match.actionName)
            properties[ReportEventKey.feature] = .string(match.featureName)
        }
        properties.merge(Self.properties(of: opening.result)) { _, result in result }
        reporter.record(type: .urlOpened, properties: properties, forceTracking: asksForTracking(opening.url))
    }

    package func activityRouter(_ router: ActivityRouter, didContinue continuation: ActivityContinuation) {
        var properties: [String: JSONValue] = [
            ReportEventKey.activityType: .string(continuation.activityType),
            ReportEventKey.session: .string(continuation.sessionName),
        ]
        switch continuation.result {
        case .performed(let outcome):
            properties[ReportEventKey.result] = "performed"
            properties.merge(HookProperties.outcome(outcome)) { _, outcome in outcome }
        case .noMatch:
            properties[ReportEventKey.result] = "noMatch"
        case .badInput(let error):
            properties[ReportEventKey.result] = "badInput"
            properties[ReportEventKey.error] = ActionPerformOutcome.failure(error: error).errorDescription.map {
                .string($0)
            }
        }
        reporter.record(type: .activityContinued, properties: properties)
    }

    /// The result of opening a URL as `result` and its details.
    static func properties(of result: URLRouteResult) -> [String: JSONValue] {
        switch result {
        case .performed(let outcome):
            return HookProperties.outcome(outcome).merging([ReportEventKey.result: "performed"]) { _, result in result }
        case .noMatch: return [ReportEventKey.result: "noMatch"]
        case .unsupportedScope: return [ReportEventKey.result: "unsupportedScope"]
        case .badParameter(let name, _):
            return [ReportEventKey.result: "badParameter", ReportEventKey.parameter: .string(name)]
        case .cancelled: return [ReportEventKey.result: "cancelled"]
        case .unavailable: return [ReportEventKey.result: "unavailable"]
        case .presenterUnavailable: return [ReportEventKey.result: "presenterUnavailable"]
        }
    }

    /// The URL without its query, fragment, user and password.
    static func reportableURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? ""
    }

    private func asksForTracking(_ url: URL) -> Bool {
        guard let name = forceTrackingParameter,
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else { return false }
        return items.contains { $0.name == name && HookProperties.isTrue($0.value) }
    }
}
