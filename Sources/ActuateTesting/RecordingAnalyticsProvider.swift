import Actuate
import Synchronization

/// An `AnalyticsProvider` that keeps every event in memory, for tests.
///
/// ```swift
/// let analytics = RecordingAnalyticsProvider()
/// let harness = ActionTestHarness(plugins: [AnalyticsPlugin(provider: analytics)])
/// await harness.perform(CheckoutFeature.checkout, input: Basket(items: ["sku-1"]))
/// #expect(analytics.events.map(\.phase) == [.began, .ended])
/// ```
public final class RecordingAnalyticsProvider: AnalyticsProvider {
    private let recorded = Mutex<[AnalyticsEvent]>([])

    /// Creates an empty recorder.
    public init() {}

    public func track(_ event: AnalyticsEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// Every event received so far, in order.
    public var events: [AnalyticsEvent] { recorded.withLock { $0 } }

    /// The begin events received so far, in order.
    package var beganEvents: [AnalyticsEvent] { events.filter { $0.phase == .began } }

    /// The end events received so far, in order.
    package var endedEvents: [AnalyticsEvent] { events.filter { $0.phase == .ended } }

    /// Forgets what was recorded.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}
