/// The property names of the events the hooks record, beside those of ``ReportingPlugin`` (`action`, `feature`,
/// `session`, `requestId`, `outcome`, `error`, `featureTerminated`, `durationSeconds`), which they share.
extension ReportEventKey {
    /// The action's display name.
    package static let action = "action"
    /// The feature's path, such as `Shop/Catalog`; for URL opens, the display name of the route's feature.
    package static let feature = "feature"
    /// The name of the `ActionSession` the action ran in (not the reporting session, which is the event's own).
    package static let session = "session"
    /// The dispatcher's request id, shared by the events of one request.
    package static let requestID = "requestId"
    /// How an action ended: `success`, `failure` or `cancelled`.
    package static let outcome = "outcome"
    /// A failure's description, from `ActionPerformOutcome.errorDescription` (redacted by `Loggable` errors).
    package static let error = "error"
    /// Whether the outcome ended the feature's current use.
    package static let featureTerminated = "featureTerminated"
    /// How long the action took, in seconds.
    package static let durationSeconds = "durationSeconds"
    /// The action's `analyticsID`.
    package static let analyticsID = "analyticsId"
    /// Where the request came from: `application`, `openURL`, `continueActivity` or `intent`.
    package static let source = "source"
    /// The activity type, for activity events and for actions that continued an activity.
    package static let activityType = "activityType"
    /// Whether the user asked for the action, or opened the link, directly.
    package static let userInitiated = "userInitiated"
    /// The input's `loggingDescription`.
    package static let input = "input"
    /// The action's analytics attributes, as a JSON object; redacted values are left out.
    package static let attributes = "attributes"
    /// For `activity_published`: the eligibility, as a sorted array of names.
    package static let eligibility = "eligibility"
    /// For `url_opened`: the URL without its query, fragment and credentials.
    package static let url = "url"
    /// For `url_opened` and `activity_continued`: what the router did, such as `performed` or `noMatch`.
    package static let result = "result"
    /// For `url_opened`: the pattern of the route that matched.
    package static let pattern = "pattern"
    /// For `url_opened` with `badParameter`: the parameter's name (never its value).
    package static let parameter = "parameter"
    /// For action failures: the last timeline entries of the action's session, oldest first, when opted in.
    package static let timeline = "timeline"
    /// For action failures: how many entries the excerpt's byte cap left out.
    package static let timelineOmitted = "timelineOmitted"
}
