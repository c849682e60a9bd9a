import ActuateReporting
import ActuateTesting
import Dispatch
import Foundation

@testable import ActuateCore
@testable import ActuatePlugins

/// Actions and features for the hook tests: analytics with a redacted attribute, failures with a secret in the
/// error, URL routes and a conditional feature.
enum HookQueues {
    static let queue = DispatchQueue(label: "actuate.reporting-tests.hooks")
}

/// A card number the tests search every stored event for.
enum HookSecrets {
    static let card = "4111-1111-1111-1111"
}

struct HookPayment: Loggable {
    var card: Redacted<String>
    var amount: Int
    var declines: Bool
    var loggingDescription: String { "amount \(amount), card \(card.loggingDescription)" }
}

/// A declined card: its `description` holds the number, its `loggingDescription` does not.
struct HookCardDeclined: Error, Loggable, CustomStringConvertible {
    var number: String
    var description: String { "card \(number) declined" }
    var loggingDescription: String { "card declined" }
}

final class HookPayAction: Action {
    typealias InputType = HookPayment
    static var queue: DispatchQueue { HookQueues.queue }
    static var analyticsID: String? { "pay" }

    static func analyticsAttributes<F>(forRequest request: ActionRequest<F, HookPayAction>) -> [String: AnalyticsValue]?
    {
        [
            "card": .loggable(request.context.input.card),
            "amount": .int(request.context.input.amount),
            "ratio": .double(.nan),
            "currency": "EUR",
        ]
    }

    static func perform(
        context: ActionContext<HookPayment>,
        presenter: Void,
        completion: Completion
    ) -> Completion.Status {
        let input = context.input
        return completion.completedSync(
            input.declines ? .failure(error: HookCardDeclined(number: input.card.value)) : .success
        )
    }
}

/// Shows a product; a negative id fails, with an error that is not `Loggable`.
final class HookViewProductAction: Action {
    typealias InputType = Int
    static var queue: DispatchQueue { HookQueues.queue }
    static var analyticsID: String? { "view_product" }
    static var activityEligibility: Set<ActivityEligibility> { [.handoff, .search] }

    static func analyticsAttributes<F>(
        forRequest request: ActionRequest<F, HookViewProductAction>
    )
        -> [String: AnalyticsValue]?
    {
        ["product": .int(request.context.input)]
    }

    static func prepareActivity(_ activity: ActivityBuilder<HookViewProductAction>) throws {
        activity.title = "Product \(activity.input)"
        activity.userInfo = ["id": String(activity.input)]
    }

    static func perform(context: ActionContext<Int>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(context.input < 0 ? .failure(error: HookProductMissing(id: context.input)) : .success)
    }
}

struct HookProductMissing: Error, CustomStringConvertible {
    var id: Int
    var description: String { "product \(id) missing" }
}

/// Asks for tracking whatever the consent, as a consent prompt's own analytics might.
final class HookConsentPromptAction: Action {
    static var queue: DispatchQueue { HookQueues.queue }
    static var analyticsID: String? { "consent_prompt" }

    static func analyticsAttributes<F>(
        forRequest request: ActionRequest<F, HookConsentPromptAction>
    )
        -> [String: AnalyticsValue]?
    {
        [ReportEventKey.trackingForced: true, "screen": "onboarding"]
    }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// An action without analytics that always fails.
final class HookSyncAction: Action {
    static var queue: DispatchQueue { HookQueues.queue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.failure(error: HookProductMissing(id: 0)))
    }
}

final class HookShopFeature: Feature, URLMapped {
    static let pay = action(HookPayAction.self)
    static let viewProduct = action(HookViewProductAction.self)
    static let consentPrompt = action(HookConsentPromptAction.self)
    static let sync = action(HookSyncAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(pay)
        actions.declare(viewProduct)
        actions.declare(consentPrompt)
        actions.declare(sync)
    }

    static func urlMappings(routes: URLMappingsBuilder<HookShopFeature>) {
        routes.send("product/$(id)", to: viewProduct)
    }
}

final class HookPremiumAction: Action {
    static var queue: DispatchQueue { HookQueues.queue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Switched off by default, so its route is unavailable.
final class HookPremiumFeature: ConditionalFeature, URLMapped {
    static let open = action(HookPremiumAction.self)

    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(open)
    }

    static func urlMappings(routes: URLMappingsBuilder<HookPremiumFeature>) {
        routes.send("premium", to: open)
    }
}

final class HookApp: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] {
        [HookShopFeature.self, HookPremiumFeature.self, HookMiscFeature.self]
    }

    static func prepare(actions: FeatureActionsBuilder) {}
}

/// A reporter over a memory store, a system with every reporting hook installed, and virtual time.
struct HookTestbed {
    let scheduler = TestScheduler()
    let store = MemoryEventStore()
    let reporter: Reporter
    let system: ActuateSystem
    let publisher = RecordingActivityPublisher()
    let activityRouter = ActivityRouter(activityTypePrefix: "com.example.shop")

    init(
        consent: TrackingConsent = .granted,
        excerpt: TimelineExcerptPolicy? = nil,
        analyticsProviders: [any AnalyticsProvider] = []
    ) throws {
        reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage()),
            configuration: ReporterConfiguration(initialConsent: consent)
        )
        system = try ActuateSystem.setup(
            group: HookApp.self,
            dispatching: .isolated(scheduler: scheduler, diagnostics: RecordingDiagnostics()),
            configuration: ActuateConfiguration(
                routes: URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"])
            ),
            reporting: ReportingSetup(
                reporter: reporter,
                analyticsProviders: analyticsProviders,
                timelineExcerpt: excerpt,
                activityPublisher: publisher,
                activityTypePrefix: "com.example.shop",
                activityRouter: activityRouter,
                // Content blocks' default (ContentBlockConfiguration.defaultForceTrackParameter, personalization's).
                forceTrackingParameter: "xnpe_force_track"
            )
        )
        activityRouter.register(HookShopFeature.viewProduct) { userInfo in
            guard let id = userInfo["id"].flatMap(Int.init) else {
                throw ActivityContinuationError.missingUserInfoKey("id")
            }
            return id
        }
    }

    /// Every stored event except session boundaries, oldest first.
    func events() throws -> [ReportEvent] {
        try store.fetch(count: 10_000, maxBytes: .max).filter { !ReportEventType(rawValue: $0.type).isReserved }
    }

    /// The stored events of one type.
    func events(_ type: ReportEventType) throws -> [ReportEvent] {
        try events().filter { $0.type == type.rawValue }
    }

    /// Performs in the system's main session.
    @discardableResult
    func perform<F, A>(_ binding: StaticActionBinding<F, A>, _ input: A.InputType) async -> ActionOutcome
    where A.PresenterType == Void {
        await system.mainSession.perform(binding, input: input, presenter: ())
    }
}

/// Ends cancelled, which is not a failure for the failure reporter.
final class HookCancelledAction: Action {
    static var queue: DispatchQueue { HookQueues.queue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.failure(error: ActionCancellationError(bodyStarted: true)))
    }
}

final class HookMiscFeature: Feature {
    static let cancelled = action(HookCancelledAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(cancelled)
    }
}
