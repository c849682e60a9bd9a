// Stand-in for what Apple's Foundation has and swift-corelibs-foundation lacks: `NSUserActivity`, in the shape of
// the real one, for `UserActivityPublisher.swift`. The class is on all five platforms; `isEligibleForPrediction`
// only on iOS, watchOS and visionOS. Type-checked against on Linux by `.ci/apple-only`, which adds
// `import AppleFoundation` after `import Foundation` in the files it checks; never linked.
import Foundation

/// A state of the app the system can index, hand off and suggest: macOS 10.10, iOS 8, tvOS 9, watchOS 2, visionOS 1.
open class NSUserActivity: NSObject {
    public init(activityType: String) { self.activityType = activityType }
    open var activityType: String
    open var title: String?
    open var keywords: Set<String> = []
    open var userInfo: [AnyHashable: Any]?
    open var requiredUserInfoKeys: Set<String>?
    open var webpageURL: URL?
    open var isEligibleForHandoff: Bool = true
    open var isEligibleForSearch: Bool = false
    open var isEligibleForPublicIndexing: Bool = false
    #if os(iOS) || os(watchOS) || os(visionOS)
    /// iOS 12, watchOS 5, visionOS 1; not macOS or tvOS.
    open var isEligibleForPrediction: Bool = false
    #endif
    open func becomeCurrent() {}
    open func resignCurrent() {}
    open func invalidate() {}
}
