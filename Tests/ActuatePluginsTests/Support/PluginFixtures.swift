import ActuateTesting
import Dispatch
import Foundation
import Synchronization

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins

// Fixtures for the analytics, activities, action stacks and focus logging tests. Every test builds its own
// dispatcher and plugins; the only process-wide state touched is the feature registry, whose metadata is a
// pure function of these types.

/// How a fixture action ends.
enum Ending: Sendable, Hashable {
    case success
    case successTerminating
    case failure(String)
    case failureTerminating(String)
    case cancelled
    /// Fails with a `Loggable` error whose description leaves out its secret.
    case secretFailure

    var outcome: ActionPerformOutcome {
        switch self {
        case .success: .success
        case .successTerminating: .successWithFeatureTermination
        case .failure(let message): .failure(error: FixtureError(message: message))
        case .failureTerminating(let message): .failureWithFeatureTermination(error: FixtureError(message: message))
        case .cancelled: .failure(error: ActionCancellationError(bodyStarted: true))
        case .secretFailure: .failure(error: CardDeclinedError(cardNumber: "4111111111111111"))
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { "FixtureError: \(message)" }
}

/// A presenter that holds a deferred status until the test completes it, for actions that take virtual time.
final class DeferredCompleter: Sendable {
    private struct State {
        var status: ActionPerformOutcomeStatus?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func hold(_ deferred: ActionPerformOutcomeStatus) {
        let waiters = state.withLock { state in
            state.status = deferred
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the body has run and handed over its status.
    func held() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.status != nil { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Completes the held status; returns false if the body has not run yet.
    @discardableResult
    func complete(_ outcome: ActionPerformOutcome) -> Bool {
        guard let deferred = state.withLock({ $0.status }) else { return false }
        deferred.completed(outcome)
        return true
    }
}

typealias ActionPerformOutcomeStatus = CompletionRequirement<ActionPerformOutcome>.DeferredStatus

/// An error that holds private data and describes itself without it.
struct CardDeclinedError: Error, Loggable {
    var cardNumber: String
    var loggingDescription: String { "card declined" }
}

// MARK: Analytics

/// An input holding a secret, described with `Redacted`.
struct TrackedSignInInput: Loggable {
    var email: String
    var password: Redacted<String>
    var ending: Ending = .success

    var loggingDescription: String { "\(email), password \(password.loggingDescription)" }
}

final class TrackedSignInAction: Action {
    typealias InputType = TrackedSignInInput
    static var queue: DispatchQueue { TestQueues.background }
    static var analyticsID: String? { "sign-in" }

    static func analyticsAttributes<F: FeatureDefinition>(
        forRequest request: ActionRequest<F, TrackedSignInAction>
    ) -> [String: AnalyticsValue]? {
        let domain = request.context.input.email.split(separator: "@").last.map(String.init) ?? ""
        return ["method": "password", "emailDomain": .string(domain), "attempt": 1]
    }

    static func perform(
        context: ActionContext<TrackedSignInInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(context.input.ending.outcome)
    }
}

final class UntrackedAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

final class SlowTrackedAction: Action {
    typealias PresenterType = DeferredCompleter
    static var queue: DispatchQueue { TestQueues.background }
    static var analyticsID: String? { "slow" }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: DeferredCompleter,
        completion: Completion
    )
        -> Completion.Status
    {
        let status = completion.willCompleteAsync()
        presenter.hold(status)
        return status
    }
}

final class AccountsFeature: Feature {
    static let signIn = action(TrackedSignInAction.self)
    static let untracked = action(UntrackedAction.self)
    static let slow = action(SlowTrackedAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(signIn)
        actions.declare(untracked)
        actions.declare(slow)
    }
}

// MARK: Activities

/// What `ActivityViewProductAction.prepareActivity` does.
enum PrepareBehaviour: Sendable, Hashable {
    case fill
    case cancel
    case fail
    case forgetRequiredKey
    case narrowToNothing
}

struct ProductInput: Loggable {
    var sku: String
    var name: String
    var ending: Ending = .success
    var prepare: PrepareBehaviour = .fill

    var loggingDescription: String { "\(sku) \(name)" }
}

final class ActivityViewProductAction: Action {
    typealias InputType = ProductInput
    static var name: String { "View Product" }
    static var queue: DispatchQueue { TestQueues.background }
    static var activityEligibility: Set<ActivityEligibility> { [.handoff, .search, .prediction] }
    static var suggestedInvocationPhrase: String? { "Show the product" }

    static func prepareActivity(_ activity: ActivityBuilder<ActivityViewProductAction>) throws {
        switch activity.input.prepare {
        case .cancel:
            activity.cancel()
            return
        case .fail:
            throw FixtureError(message: "no title for \(activity.input.sku)")
        case .narrowToNothing:
            activity.eligibility = []
        case .fill, .forgetRequiredKey:
            break
        }
        activity.title = "View \(activity.input.name)"
        activity.subtitle = "Product"
        activity.keywords = ["product", activity.input.name]
        activity.requiredUserInfoKeys = ["sku"]
        if activity.input.prepare != .forgetRequiredKey {
            activity.userInfo = ["sku": activity.input.sku, "name": activity.input.name]
        }
        activity.url = URL(string: "https://shop.example/products/\(activity.input.sku)")
    }

    static func perform(
        context: ActionContext<ProductInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(context.input.ending.outcome)
    }
}

final class NotAnActivityAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

final class ActivityCatalogFeature: Feature {
    static let viewProduct = action(ActivityViewProductAction.self)
    static let plain = action(NotAnActivityAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(viewProduct)
        actions.declare(plain)
    }
}

// MARK: Action stacks

/// One step of a stack test: a label for the input and how the step ends.
struct Step: Loggable {
    var label: String
    var ending: Ending = .success

    var loggingDescription: String { label }
}

final class StepAction: Action {
    typealias InputType = Step
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<Step>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(context.input.ending.outcome)
    }
}

final class HiddenStepAction: Action {
    typealias InputType = Step
    static var queue: DispatchQueue { TestQueues.background }
    static var hideFromTimeline: Bool { true }

    static func perform(context: ActionContext<Step>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(context.input.ending.outcome)
    }
}

final class EditorFeature: Feature {
    static let step = action(StepAction.self)
    static let hiddenStep = action(HiddenStepAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(step)
        actions.declare(hiddenStep)
    }
}

final class LibraryFeature: Feature {
    static let step = action(StepAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(step)
    }
}

// MARK: Focus logging

/// Logs one message per level on both loggers: "<channel> <level> <input>".
final class LogEverythingAction: Action {
    typealias InputType = String
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<String>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        for (channel, logger) in [("dev", context.logs.development), ("prod", context.logs.production)] {
            for level in LogLevel.allCases {
                logger.log(level, "\(channel) \(level) \(context.input)")
            }
        }
        return completion.completedSync(.success)
    }
}

/// The root of a feature tree, so that focus tests have nested paths.
final class FocusAppFeatures: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [FocusShopFeatures.self, FocusAccountFeature.self] }
}

final class FocusShopFeatures: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [FocusCartFeature.self] }
}

final class FocusCartFeature: Feature {
    static let log = action(LogEverythingAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(log)
    }
}

final class FocusAccountFeature: Feature {
    static let log = action(LogEverythingAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(log)
    }
}

enum FocusFixtures {
    /// Registers the feature tree once, before any of its features is used, so their paths are nested.
    static let registered: Void = {
        _ = try! FeatureRegistry.shared.register(FocusAppFeatures.self)
    }()

    static var cartPath: FeaturePath {
        _ = registered
        return FocusCartFeature.identifier
    }

    static var shopPath: FeaturePath {
        _ = registered
        return FocusShopFeatures.identifier
    }

    static var accountPath: FeaturePath {
        _ = registered
        return FocusAccountFeature.identifier
    }
}
