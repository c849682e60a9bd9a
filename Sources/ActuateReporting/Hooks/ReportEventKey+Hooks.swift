/// The property names of the events the hooks record, beside those of ``ReportingPlugin`` (`action`, `feature`,
/// `session`, `requestId`, `outcome`, `error`, `featureTerminated`, `durationSeconds`), which they share.
extension ReportEventKey {
    /// The action's display name.
    public static let action = "action"
    /// The feature's path, such as `Shop/Catalog`; for URL opens, the display name of the route's feature.
    public static let feature = "feature"
    /// The name of the `ActionSession` the action ran in (not the reporting session, which is the event's own).
    public static let session = "session"
    /// The dispatcher's request id, shared by the events of one request.
    public static let requestID = "requestId"
    /// How an action ended: `success`, `failure` or `cancelled`.
    public static let outcome = "outcome"
    /// A failure's description, from `ActionPerformOutcome.errorDescription` (redacted by `Loggable` errors).
    public static let error = "error"
    /// Whether the outcome ended the feature's current use.
    public static let featureTerminated = "featureTerminated"
    /// How long the action took, in seconds.
    public static let durationSeconds = "durationSeconds"
    /// The action's `analyticsID`.
    public static let analyticsID = "analyticsId"
    /// Where the request came from: `application`, `openURL`, `continueActivity` or `intent`.
    public static let source = "source"
    /// The activity type, for activity events and for actions that continued an activity.
    public static let activityType = "activityType"
    /// Whether the user asked for the action, or opened the link, directly.
    public static let userInitiated = "userInitiated"
    /// The input's `loggingDescription`.
    public static let input = "input"
    /// The action's analytics attributes, as a JSON object; redacted values are left out.
    public static let attributes = "attributes"
    /// For `activity_published`: the eligibility, as a sorted array of names.
    public static let eligibility = "eligibility"
    /// For `url_opened`: the URL without its query, fragment and credentials.
    public static let url = "url"
    /// For `url_opened` and `activity_continued`: what the router did, such as `performed` or `noMatch`.
    public static let result = "result"
    /// For `url_opened`: the pattern of the route that matched.
    public static let pattern = "pattern"
    /// For `url_opened` with `badParameter`: the parameter's name (never its value).
    public static let parameter = "parameter"
    /// For action failures: the last timeline entries of the action's session, oldest first, when opted in.
    public static let timeline = "timeline"
    /// For action failures: how many entries the excerpt's byte cap left out.
    public static let timelineOmitted = "timelineOmitted"
}
