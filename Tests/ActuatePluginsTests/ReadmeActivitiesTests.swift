import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins

// The Activities snippets of the Actuate DocC article "Plugins" (once the README's), verbatim between the marked
// lines: the portable one runs on every platform, the Apple-only one compiles where NSUserActivity exists.

enum ReadmeActivities {
    private static let queue = DispatchQueue(label: "actuate.tests.readme-activities")

    final class ViewProductAction: Action {
        typealias InputType = String
        static var queue: DispatchQueue { ReadmeActivities.queue }
        static var activityEligibility: Set<ActivityEligibility> { [.handoff, .search] }

        static func prepareActivity(_ activity: ActivityBuilder<ViewProductAction>) throws {
            activity.title = "Product \(activity.input)"
            activity.userInfo["sku"] = activity.input
            activity.requiredUserInfoKeys = ["sku"]
        }

        static func perform(
            context: ActionContext<String>,
            presenter: Void,
            completion: Completion
        )
            -> Completion.Status
        {
            completion.completedSync(.success)
        }
    }

    final class CatalogFeature: Feature {
        static let viewProduct = action(ViewProductAction.self)

        static func prepare(actions: FeatureActionsBuilder) {
            actions.publish(viewProduct)
        }
    }

    /// The portable snippet; returns what the router and publisher saw.
    static func portable(dispatcher: ActionDispatcher, session: ActionSession) async -> [String] {
        var seen: [String] = []
        func print(_ value: Any) { seen.append("\(value)") }

        // README begins
        let publisher = RecordingActivityPublisher()  // keeps published activities in memory
        dispatcher.add(plugin: ActivitiesPlugin(publisher: publisher, activityTypePrefix: "com.example.shop"))

        let router = ActivityRouter(activityTypePrefix: "com.example.shop")
        router.register(CatalogFeature.viewProduct) { userInfo in
            guard let sku = userInfo["sku"] else { throw ActivityContinuationError.missingUserInfoKey("sku") }
            return sku
        }
        await session.perform(CatalogFeature.viewProduct, input: "42")  // succeeds, so its activity is published
        if let activity = publisher.current {
            // Performed with source .continueActivity(type:).
            let result = await router.continue(
                activityType: activity.activityType,
                userInfo: activity.userInfo,
                session: session
            )
            print(result)  // performed
        }
        // README ends

        return seen + publisher.activities.map(\.activityType)
    }

    #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    @MainActor
    static func appleOnly(dispatcher: ActionDispatcher, router: ActivityRouter, userActivity: NSUserActivity) async {
        // README begins
        dispatcher.add(
            plugin: ActivitiesPlugin(publisher: UserActivityPublisher(), activityTypePrefix: "com.example.shop")
        )
        let result = await router.continue(userActivity, session: .main)  // the NSUserActivity the system handed you
        // README ends
        _ = result
    }
    #endif
}

@Suite("README: activities")
struct ReadmeActivitiesTests {
    @Test("the portable snippet publishes an activity and continues it, with a continueActivity source")
    func portableSnippet() async {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let timeline = Timeline(maxEntries: 10)
        dispatcher.add(plugin: timeline)
        let session = ActionSession(named: "readme", dispatcher: dispatcher)
        let seen = await ReadmeActivities.portable(dispatcher: dispatcher, session: session)
        let type = "com.example.shop.CatalogFeature.ViewProductAction"
        #expect(seen == ["performed", type, type], "the first perform and the continued one each publish")
        #expect(timeline.snapshot().map(\.source) == [.application, .continueActivity(type: type)])
    }
}
