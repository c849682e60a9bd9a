// Stand-in for Apple's UserNotifications: the declarations `CampaignContext+UserNotifications.swift` uses, in the
// shapes of the real ones. The module exists on all five platforms, but a response to a notification, and a
// content's `userInfo`, do not on tvOS. Type-checked against on Linux by `.ci/apple-only`; never linked.
import AppleFoundation
import Foundation

#if os(macOS) || os(iOS) || os(watchOS) || os(visionOS)
/// The user's response to a notification: macOS 10.14, iOS 10, watchOS 3, visionOS 1; not tvOS.
open class UNNotificationResponse: NSObject, @unchecked Sendable {
    open var notification: UNNotification { fatalError("stand-in") }
    open var actionIdentifier: String { fatalError("stand-in") }
}

/// A delivered notification.
open class UNNotification: NSObject, @unchecked Sendable {
    open var request: UNNotificationRequest { fatalError("stand-in") }
    open var date: Date { fatalError("stand-in") }
}
#endif

/// A notification's request.
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    open var identifier: String { fatalError("stand-in") }
    open var content: UNNotificationContent { fatalError("stand-in") }
}

/// A notification's content.
open class UNNotificationContent: NSObject, @unchecked Sendable {
    open var title: String { fatalError("stand-in") }
    #if os(macOS) || os(iOS) || os(watchOS) || os(visionOS)
    open var userInfo: [AnyHashable: Any] { fatalError("stand-in") }
    #endif
}
