/// How one action performed, from the `action_ended` events `ReportingAnalyticsProvider` records: how often
/// it ran and failed, how long it took, and how users arrived at it.
///
/// Rates and durations are nil when nothing was measured, never 0.
public struct ActionFigures: Sendable, Hashable, Codable {
    /// `action_ended` events: times the action completed, however it ended.
    public var performed = 0
    /// Completions with the outcome `failure`.
    public var failed = 0
    /// Completions with the outcome `cancelled` (neither performed successfully nor failed).
    public var cancelled = 0
    /// ``failed`` / ``performed``, or nil when the action never completed.
    public var failureRate: Double?
    /// Wilson's 95% interval of ``failureRate``, or nil when the action never completed.
    package var failureRateInterval: RateInterval?
    /// The median duration in seconds (nearest rank, within 1%), or nil without durations.
    public var medianDurationSeconds: Double?
    /// The 95th-percentile duration in seconds (nearest rank, within 1%), or nil without durations.
    public var p95DurationSeconds: Double?
    /// Completions requested by the app's own code.
    package var arrivedFromApplication = 0
    /// Completions requested by a URL the app opened.
    package var arrivedFromURL = 0
    /// Completions requested by an activity the app continued.
    package var arrivedFromActivity = 0
    /// Completions requested by a system intent.
    package var arrivedFromIntent = 0

    /// Creates figures with every count zero.
    init() {}

    /// The completions that arrived from one source.
    ///
    /// - Parameter source: The source.
    /// - Returns: The count.
    package subscript(arrivedFrom source: ArrivalSource) -> Int {
        get {
            switch source {
            case .application: arrivedFromApplication
            case .url: arrivedFromURL
            case .activity: arrivedFromActivity
            case .intent: arrivedFromIntent
            }
        }
        set {
            switch source {
            case .application: arrivedFromApplication = newValue
            case .url: arrivedFromURL = newValue
            case .activity: arrivedFromActivity = newValue
            case .intent: arrivedFromIntent = newValue
            }
        }
    }
}

/// The figures of one action, identified by its `analyticsID`.
public struct ActionStatistics: Sendable, Hashable, Codable {
    /// The action's `analyticsID`.
    public var analyticsID: String
    /// The action's display name, as its latest event gave it.
    public var actionName: String
    /// The path of the action's feature, as its latest event gave it.
    public var featurePath: String
    /// Its figures.
    public var figures: ActionFigures

    /// Creates statistics for one action.
    ///
    /// - Parameters:
    ///   - analyticsID: The action's `analyticsID`.
    ///   - actionName: Its display name.
    ///   - featurePath: Its feature's path.
    ///   - figures: Its figures.
    init(analyticsID: String, actionName: String, featurePath: String, figures: ActionFigures) {
        self.analyticsID = analyticsID
        self.actionName = actionName
        self.featurePath = featurePath
        self.figures = figures
    }
}
