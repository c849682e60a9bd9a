import ActuateCore
import Synchronization

/// Makes published activities known to the system, for example as the current `NSUserActivity`.
///
/// ``ActivitiesPlugin`` calls ``publish(_:)`` on the thread that completed the action; a publisher that needs
/// the main actor hops there itself.
public protocol ActivityPublisher: Sendable {
    /// Publishes one activity.
    ///
    /// - Parameter activity: The activity an action prepared after it succeeded.
    func publish(_ activity: PublishedActivity)
}

/// A publisher that keeps every activity in memory: the publisher for Linux apps and for tests.
///
/// ```swift
/// let publisher = RecordingActivityPublisher()
/// let harness = ActionTestHarness(plugins: [ActivitiesPlugin(publisher: publisher)])
/// await harness.perform(CatalogFeature.viewProduct, input: "socks")
/// #expect(publisher.current?.userInfo["sku"] == "socks")
/// ```
public final class RecordingActivityPublisher: ActivityPublisher {
    private let recorded = Mutex<[PublishedActivity]>([])

    /// Creates an empty publisher.
    public init() {}

    public func publish(_ activity: PublishedActivity) {
        recorded.withLock { $0.append(activity) }
    }

    /// Every activity published so far, in order.
    public var activities: [PublishedActivity] { recorded.withLock { $0 } }

    /// The activity published last, which the system would treat as current.
    public var current: PublishedActivity? { recorded.withLock { $0.last } }

    /// Forgets what was published.
    func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}
