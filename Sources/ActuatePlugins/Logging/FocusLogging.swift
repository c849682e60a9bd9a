import ActuateCore
import Foundation
import Synchronization

/// Contextual logging filtered by a focus selection: pass it to a dispatcher as its logger factory, and each
/// request's `ActionContext.logs` write through it.
///
/// Every request gets a development and a production logger that know its feature, action and session. What
/// they let through is decided when the request is made:
/// - a focused feature (see ``FocusSelection``) logs from `.debug` up, on both loggers;
/// - other features log only errors while anything is focused;
/// - with nothing focused, the development logger logs from its `developmentDefaultLevel:` (`.info`) up and the
///   production logger from its `productionDefaultLevel:` (`.warning`) up.
///
/// Errors always pass. The last `maxRecentEvents` events are kept in a ring buffer for the debug report.
///
/// Loggers are immutable, so requests that agree on everything a logger knows (feature, action, session,
/// levels and clock) share one pair: the recently made pairs are kept, and a request gets its pair without
/// allocating.
///
/// ```swift
/// let logging = FocusLogging(backend: PrintLogBackend())
/// let dispatcher = ActionDispatcher(scheduler: SystemScheduler.shared, loggerFactory: logging)
/// logging.selection.focus(CheckoutFeature.identifier)
/// // Inside an action: context.logs.development.debug("Basket has \(basket.count) items")
/// ```
public final class FocusLogging: ActionLoggerFactory, DebugReportable {
    /// The default number of recent events kept: the `maxRecentEvents` default of the initializer.
    static let defaultMaxRecentEvents = 1_000

    /// The focused features; change it at any time.
    public let selection: FocusSelection
    /// Where events that pass the filter are written.
    let backend: any LogBackend
    /// The development loggers' lowest level while nothing is focused.
    let developmentDefaultLevel: LogLevel
    /// The production loggers' lowest level while nothing is focused.
    let productionDefaultLevel: LogLevel
    /// Where loggers record; loggers hold it rather than this object, which holds loggers in `cache`.
    private let sink: FocusLogSink
    private let cache = Mutex(ActionLogsCache())

    /// Creates focus logging. Event dates come from the clock of the dispatcher that asks it for loggers.
    ///
    /// - Parameters:
    ///   - selection: The focused features; none by default.
    ///   - backend: Where events are written; standard output and error by default.
    ///   - developmentDefaultLevel: The development loggers' lowest level while nothing is focused.
    ///   - productionDefaultLevel: The production loggers' lowest level while nothing is focused.
    ///   - maxRecentEvents: How many recent events to keep for the debug report; at least 1.
    public init(
        selection: FocusSelection = FocusSelection(),
        backend: any LogBackend = PrintLogBackend(),
        developmentDefaultLevel: LogLevel = .info,
        productionDefaultLevel: LogLevel = .warning,
        maxRecentEvents: Int = 1_000
    ) {
        self.selection = selection
        self.backend = backend
        self.developmentDefaultLevel = developmentDefaultLevel
        self.productionDefaultLevel = productionDefaultLevel
        self.sink = FocusLogSink(backend: backend, maxRecentEvents: maxRecentEvents)
    }

    /// The most recent events kept.
    var maxRecentEvents: Int { sink.recent.withLock { $0.capacity } }

    public func makeLogs(
        feature: FeatureMetadata,
        action: ActionMetadata,
        session: String,
        clock: any ActuateScheduler
    ) -> ActionLogs {
        let levels = minimumLevels(for: feature.path)
        guard let clockID = ActionLogsCache.Key.identity(of: clock) else {
            return makeLogs(feature, action, session, clock, levels)
        }
        let key = ActionLogsCache.Key(
            feature: ObjectIdentifier(feature),
            action: ObjectIdentifier(action),
            session: session,
            clock: clockID,
            development: levels.development,
            production: levels.production
        )
        if let logs = cache.withLock({ $0.logs(for: key) }) { return logs }
        let logs = makeLogs(feature, action, session, clock, levels)
        cache.withLock { $0.insert(logs, for: key) }
        return logs
    }

    private func makeLogs(
        _ feature: FeatureMetadata,
        _ action: ActionMetadata,
        _ session: String,
        _ clock: any ActuateScheduler,
        _ levels: (development: LogLevel, production: LogLevel)
    ) -> ActionLogs {
        ActionLogs(
            development: logger(.development, levels.development, feature, action.name, session, clock),
            production: logger(.production, levels.production, feature, action.name, session, clock)
        )
    }

    /// The lowest levels a feature's development and production loggers would let through now.
    ///
    /// - Parameter path: The feature's identifier.
    /// - Returns: The two levels.
    func minimumLevels(for path: FeaturePath) -> (development: LogLevel, production: LogLevel) {
        switch selection.status(of: path) {
        case .noSelection: (developmentDefaultLevel, productionDefaultLevel)
        case .focused: (.debug, .debug)
        case .notFocused: (.error, .error)
        }
    }

    /// The most recent events that passed the filter, oldest first.
    func recentEvents() -> [LogEvent] {
        sink.recent.withLock { $0.elements }
    }

    /// Forgets the recent events.
    func clearRecentEvents() {
        sink.recent.withLock { $0.removeAll() }
    }

    private func logger(
        _ channel: LogChannel,
        _ minimumLevel: LogLevel,
        _ feature: FeatureMetadata,
        _ actionName: String,
        _ session: String,
        _ clock: any ActuateScheduler
    ) -> FocusLogger {
        FocusLogger(
            sink: sink,
            clock: clock,
            channel: channel,
            minimumLevel: minimumLevel,
            featurePath: feature.path,
            actionName: actionName,
            sessionName: session
        )
    }

    // MARK: Debug report

    private struct Report: Codable {
        var focusedPaths: [FeaturePath]
        var events: [LogEvent]
    }

    public var debugReportSectionName: String { "focusLogs" }
    public var debugReportOrder: Int { 20 }

    /// The focused paths and the recent events, as JSON.
    ///
    /// - Throws: An encoding error, which the types used here never produce.
    public func debugReportJSON() throws -> Data {
        let paths = selection.focusedPaths.sorted { $0.description < $1.description }
        return try DebugReport.makeJSONEncoder().encode(Report(focusedPaths: paths, events: recentEvents()))
    }

    /// The focused paths and the recent events, one line each.
    public func debugReportText() -> String {
        let paths = selection.focusedPaths.map(\.description).sorted()
        var text = "Focused: " + (paths.isEmpty ? "(nothing; defaults apply)" : paths.joined(separator: ", ")) + "\n"
        let events = recentEvents()
        text += events.isEmpty ? "(no log events)\n" : events.map { $0.formatted + "\n" }.joined()
        return text
    }
}

/// Where the loggers of a ``FocusLogging`` record: its recent events and its backend.
final class FocusLogSink: Sendable {
    let backend: any LogBackend
    let recent: Mutex<RingBuffer<LogEvent>>

    init(backend: any LogBackend, maxRecentEvents: Int) {
        self.backend = backend
        self.recent = Mutex(RingBuffer(capacity: maxRecentEvents))
    }

    func record(_ event: LogEvent) {
        recent.withLock { _ = $0.append(event) }
        backend.write(event)
    }
}

/// The contextual logger of one request, with its level decided when the request was made.
struct FocusLogger: ContextualLogger {
    let sink: FocusLogSink
    /// The dispatcher's clock, for event dates.
    let clock: any ActuateScheduler
    let channel: LogChannel
    let minimumLevel: LogLevel
    let featurePath: FeaturePath
    let actionName: String
    let sessionName: String

    func isEnabled(_ level: LogLevel) -> Bool {
        level >= minimumLevel || level == .error
    }

    func log(_ level: LogLevel, _ message: String) {
        guard isEnabled(level) else { return }
        sink.record(
            LogEvent(
                date: ReportDate.rounded(clock.now()),
                level: level,
                channel: channel,
                featurePath: featurePath,
                actionName: actionName,
                sessionName: sessionName,
                message: message
            )
        )
    }
}
