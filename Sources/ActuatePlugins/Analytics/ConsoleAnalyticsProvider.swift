import ActuateCore
import Foundation

/// A provider that writes each event as one line, to standard output by default: analytics to read while
/// developing, before an SDK's adapter is wired in, or beside it.
///
/// ```swift
/// let analytics = AnalyticsPlugin(provider: MultiplexAnalyticsProvider([MyAnalytics(), ConsoleAnalyticsProvider()]))
/// ```
///
/// A line holds the phase, the analytics ID and the action's name; on `ended`, the outcome and the duration; then
/// the attributes sorted by key, as in `analytics: ended checkout "Checkout" success 0.120 s items=3`. Attributes
/// and outcomes are already redacted (`AnalyticsValue.redacted`, ``AnalyticsOutcome``), so a line never holds
/// a secret.
public struct ConsoleAnalyticsProvider: AnalyticsProvider {
    private let write: @Sendable (String) -> Void

    /// Creates a provider that writes to standard output.
    public init() {
        self.init { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }

    /// Creates a provider that hands each line, without a line break, to `write`: a logger, a file, a test.
    ///
    /// - Parameter write: Called with each line, on the thread that tracked the event.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// The line written for `event`.
    ///
    /// - Parameter event: The event.
    /// - Returns: One line, without a line break.
    public static func line(for event: AnalyticsEvent) -> String {
        var parts = ["analytics:", event.phase.rawValue, event.analyticsID, "\"\(event.actionName)\""]
        if event.phase == .ended {
            if let outcome = event.outcome { parts.append(outcome.description) }
            if let duration = event.duration { parts.append(String(format: "%.3f s", duration)) }
        }
        for (key, value) in event.attributes.sorted(by: { $0.key < $1.key }) {
            parts.append("\(key)=\(value)")
        }
        return parts.joined(separator: " ")
    }

    /// Writes the event's ``line(for:)``.
    ///
    /// - Parameter event: The event.
    public func track(_ event: AnalyticsEvent) {
        write(Self.line(for: event))
    }
}
