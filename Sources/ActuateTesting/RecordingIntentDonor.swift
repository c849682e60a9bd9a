import Actuate
import Synchronization

/// An intent donor that keeps every donation in memory, for tests.
///
/// ```swift
/// let donor = RecordingIntentDonor()
/// let harness = ActionTestHarness(plugins: [IntentDonationPlugin(donor: donor)])
/// await harness.perform(OrdersFeature.reorder, input: "o-17")
/// #expect(donor.last?.parameters == ["value": "o-17"])
/// ```
public final class RecordingIntentDonor: IntentDonor {
    private let recorded = Mutex<[IntentDescriptor]>([])

    /// Creates an empty donor.
    public init() {}

    public func donate(_ intent: IntentDescriptor) {
        recorded.withLock { $0.append(intent) }
    }

    /// Every intent donated so far, in order.
    public var donations: [IntentDescriptor] { recorded.withLock { $0 } }

    /// The intent donated last.
    public var last: IntentDescriptor? { recorded.withLock { $0.last } }

    /// Forgets what was donated.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}
