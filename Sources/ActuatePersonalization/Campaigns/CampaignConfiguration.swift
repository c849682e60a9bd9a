import Actuate
import Dispatch

/// How a ``CampaignManager`` times contexts and where it delivers campaigns.
public struct CampaignConfiguration: Sendable {
    /// How long without user activity before the user counts as idle, which makes every context inactive.
    /// The default is 5 minutes, measured on the manager's scheduler.
    public var idleThreshold: Duration
    /// How long a screen that is not visible keeps its handlers and held campaigns. The default is 10 seconds,
    /// measured on the manager's scheduler.
    public var visibilityTimeout: Duration
    /// The queue campaign handlers are called on. The default is the main queue; tests pass a queue of their
    /// own so that they can wait for it.
    public var deliveryQueue: DispatchQueue
    /// The session whose dispatcher performs the delivery decisions, so that they appear in its timeline. The
    /// default is `main`.
    public var session: ActionSession

    /// Creates a configuration.
    /// - Parameters:
    ///   - idleThreshold: How long without user activity before the user counts as idle.
    ///   - visibilityTimeout: How long a screen that is not visible keeps its handlers and held campaigns.
    ///   - deliveryQueue: The queue handlers are called on.
    ///   - session: The session that performs the delivery decisions.
    public init(
        idleThreshold: Duration = .seconds(5 * 60),
        visibilityTimeout: Duration = .seconds(10),
        deliveryQueue: DispatchQueue = .main,
        session: ActionSession = .main
    ) {
        self.idleThreshold = idleThreshold
        self.visibilityTimeout = visibilityTimeout
        self.deliveryQueue = deliveryQueue
        self.session = session
    }
}
