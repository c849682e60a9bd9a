// UNNotificationResponse and UNNotificationContent.userInfo exist on macOS, iOS, watchOS and visionOS, not tvOS,
// whose UserNotifications has no responses (`.ci/apple-only` checks this guard against that list).
#if canImport(UserNotifications) && (os(macOS) || os(iOS) || os(watchOS) || os(visionOS))
import UserNotifications

extension CampaignContext {
    /// Tracks a click on the app's own UI for a campaign notification received in the foreground.
    ///
    /// - Parameter response: The response the notification center delivered.
    /// - Throws: An error describing the problem when the notification did not come from a campaign.
    public func trackClickthrough(response: UNNotificationResponse) throws {
        let userInfo = response.notification.request.content.userInfo
        try trackClickthrough(
            notification: CampaignNotification.payload(fromUserInfo: userInfo),
            actionIdentifier: response.actionIdentifier
        )
    }
}
#endif
