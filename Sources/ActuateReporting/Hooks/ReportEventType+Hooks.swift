/// The event types the hooks record: analytics, activities, URL routes. Action failures are recorded as
/// ``ReportEventType/error`` events whose content source is `ContentSource/appAction`.
extension ReportEventType {
    /// An action with an `analyticsID` began; recorded by `ReportingAnalyticsProvider`.
    package static let actionBegan = ReportEventType("action_began")
    /// An action with an `analyticsID` ended, with its outcome and duration; recorded by
    /// `ReportingAnalyticsProvider` and counted in `ActionFigures`.
    package static let actionEnded = ReportEventType("action_ended")
    /// An action published an activity; recorded by `ReportingActivityPublisher`.
    package static let activityPublished = ReportEventType("activity_published")
    /// The app was asked to continue an activity; recorded by `ReportingRouteObserver`.
    package static let activityContinued = ReportEventType("activity_continued")
    /// The app was asked to open a URL; recorded by `ReportingRouteObserver`.
    package static let urlOpened = ReportEventType("url_opened")
}

extension ContentSource {
    /// An action of the app's own features: `ActionFailureReporter` records each failure as an `error` event
    /// from this source, which content statistics leave out.
    package static let appAction = ContentSource(rawValue: "appAction")
}
