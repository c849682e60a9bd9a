import Actuate
import Dispatch

/// How a ``CampaignManager`` times contexts and where it delivers campaigns.
public struct CampaignConfiguration: Sendable {
    /// How long without user activity before the user counts as idle, which makes every context inactive.
    /// The default is 5 minutes, measured on the manager's scheduler.
    var idleThreshold: Duration
    /// How long a screen that is not visible keeps its handlers and held campaigns. The default is 10 seconds,
    /// measured on the manager's scheduler.
    var visibilityTimeout: Duration
    /// How long after a campaign is delivered to a context and target an identical campaign sent to them again is
    /// dropped as a duplicate. The default is 30 minutes, measured on the manager's scheduler; after it the same
    /// campaign is delivered again, so a campaign re-sent to the global context reaches the app once per window
    /// rather than never again while the app runs. The global context's deliveries are kept in the manager's
    /// directory, so its window spans a relaunch; a screen's ends with the screen.
    var duplicateWindow: Duration
    /// The queue campaign handlers are called on. The default is the main queue; tests pass a queue of their
    /// own so that they can wait for it.
    var deliveryQueue: DispatchQueue
    /// The action session whose dispatcher performs the delivery decisions, so that they appear in its timeline. The
    /// default is `main`.
    package var actionSession: ActionSession

    /// Creates a configuration.
    /// - Parameters:
    ///   - idleThreshold: How long without user activity before the user counts as idle.
    ///   - visibilityTimeout: How long a screen that is not visible keeps its handlers and held campaigns.
    ///   - duplicateWindow: How long a delivered campaign keeps an identical one from being delivered again.
    ///   - deliveryQueue: The queue handlers are called on.
    ///   - session: The session that performs the delivery decisions.
    public init(
        idleThreshold: Duration = .seconds(5 * 60),
        visibilityTimeout: Duration = .seconds(10),
        duplicateWindow: Duration = .seconds(30 * 60),
        deliveryQueue: DispatchQueue = .main,
        session: ActionSession = .main
    ) {
        self.idleThreshold = idleThreshold
        self.visibilityTimeout = visibilityTimeout
        self.duplicateWindow = duplicateWindow
        self.deliveryQueue = deliveryQueue
        self.actionSession = session
    }
}
