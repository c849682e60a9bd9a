import ActuateTesting
import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures

/// Every `perform` spelling, on static bindings, verified bindings and sessions, reaches the one dispatch with
/// the arguments it was given.
@Suite("One way to perform", .serialized)
struct ActionBindingTests {
    @Test(
        "every spelling performs once, with its input, presenter, session, source and initiator",
        arguments: Spelling.allCases
    )
    func spelling(_ spelling: Spelling) async throws {
        FormsFixture.recorder.removeAll()
        let presenter = FormsPresenter()
        let outcome = await spelling.perform(presenter: presenter)
        #expect(outcome.isSuccess)
        let began = FormsFixture.recorder.events.compactMap { event -> ActionRequestSummary? in
            if case .began(let request) = event { return request }
            return nil
        }
        let request = try #require(began.first)
        #expect(began.count == 1)
        #expect(FormsFixture.recorder.completedActionNames == [request.actionName])
        #expect(request.actionName == spelling.expected.actionName)
        #expect(request.inputDescription == spelling.expected.input)
        #expect(request.sessionName == spelling.expected.session)
        #expect(request.source == spelling.expected.source)
        #expect(request.userInitiated == spelling.expected.userInitiated)
        #expect(
            presenter.calls.recorded == (spelling.expected.drivesPresenter ? [.shown(spelling.expected.input)] : [])
        )
    }

    @Test("an action without a default session fails through every binding spelling, never crashing")
    func missingSession() async {
        #expect(
            await FormsFeature.sessionless.perform().error as? ActuateError == .missingSession(action: "Sessionless")
        )
        let outcome = await withCheckedContinuation { continuation in
            FormsFeature.sessionless.perform { continuation.resume(returning: $0) }
        }
        #expect(outcome.error as? ActuateError == .missingSession(action: "Sessionless"))
    }
}

/// One way of writing `perform`.
enum Spelling: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case bindingCallback, bindingAsync, bindingNoInputCallback, bindingNoInputAsync, bindingNoPresenterCallback
    case bindingNoPresenterAsync, bindingBareCallback, bindingBareAsync
    case sessionCallback, sessionAsync, sessionDetailedAsync, sessionNoInputCallback, sessionNoInputAsync
    case sessionNoPresenterCallback, sessionNoPresenterAsync, sessionBareCallback, sessionBareAsync
    case verifiedAsync, verifiedBareCallback, verifiedInSessionCallback, verifiedInSessionAsync

    var testDescription: String { rawValue }

    struct Expected {
        var actionName: String
        var input: String
        var session: String
        var source: ActionSource = .application
        var userInitiated = true
        var drivesPresenter: Bool
    }

    var expected: Expected {
        let session = rawValue.hasPrefix("session") || rawValue.hasPrefix("verifiedInSession") ? "explicit" : "default"
        switch self {
        case .bindingCallback, .sessionCallback:
            return Expected(
                actionName: "Full",
                input: "a",
                session: session,
                source: .intent,
                userInitiated: false,
                drivesPresenter: true
            )
        case .bindingAsync, .sessionAsync, .sessionDetailedAsync:
            return Expected(
                actionName: "Full",
                input: "b",
                session: session,
                source: .openURL,
                userInitiated: false,
                drivesPresenter: true
            )
        case .bindingNoInputCallback, .bindingNoInputAsync, .sessionNoInputCallback, .sessionNoInputAsync:
            return Expected(actionName: "Presenter Only", input: "none", session: session, drivesPresenter: true)
        case .bindingNoPresenterCallback, .bindingNoPresenterAsync, .sessionNoPresenterCallback,
            .sessionNoPresenterAsync:
            return Expected(actionName: "Input Only", input: "c", session: session, drivesPresenter: false)
        case .bindingBareCallback, .bindingBareAsync, .sessionBareCallback, .sessionBareAsync:
            return Expected(actionName: "Bare", input: "none", session: session, drivesPresenter: false)
        case .verifiedAsync, .verifiedInSessionCallback, .verifiedInSessionAsync:
            return Expected(actionName: "Full", input: "v", session: session, drivesPresenter: true)
        case .verifiedBareCallback:
            return Expected(actionName: "Bare", input: "none", session: session, drivesPresenter: false)
        }
    }

    func perform(presenter: FormsPresenter) async -> ActionOutcome {
        let session = FormsFixture.explicitSession
        let availability = FormsFixture.availability
        switch self {
        case .bindingCallback:
            return await callback {
                FormsFeature.full.perform(
                    input: "a",
                    presenter: presenter,
                    userInitiated: false,
                    source: .intent,
                    completion: $0
                )
            }
        case .bindingAsync:
            return await FormsFeature.full.perform(
                input: "b",
                presenter: presenter,
                userInitiated: false,
                source: .openURL
            )
        case .bindingNoInputCallback:
            return await callback { FormsFeature.presenterOnly.perform(presenter: presenter, completion: $0) }
        case .bindingNoInputAsync: return await FormsFeature.presenterOnly.perform(presenter: presenter)
        case .bindingNoPresenterCallback:
            return await callback { FormsFeature.inputOnly.perform(input: "c", completion: $0) }
        case .bindingNoPresenterAsync: return await FormsFeature.inputOnly.perform(input: "c")
        case .bindingBareCallback: return await callback { FormsFeature.bare.perform(completion: $0) }
        case .bindingBareAsync: return await FormsFeature.bare.perform()
        case .sessionCallback:
            return await callback {
                session.perform(
                    FormsFeature.full,
                    input: "a",
                    presenter: presenter,
                    userInitiated: false,
                    source: .intent,
                    completion: $0
                )
            }
        case .sessionAsync:
            return await session.perform(
                FormsFeature.full,
                input: "b",
                presenter: presenter,
                userInitiated: false,
                source: .openURL
            )
        case .sessionDetailedAsync:
            return await session.performDetailed(
                FormsFeature.full,
                input: "b",
                presenter: presenter,
                userInitiated: false,
                source: .openURL
            ).simplifiedOutcome
        case .sessionNoInputCallback:
            return await callback { session.perform(FormsFeature.presenterOnly, presenter: presenter, completion: $0) }
        case .sessionNoInputAsync: return await session.perform(FormsFeature.presenterOnly, presenter: presenter)
        case .sessionNoPresenterCallback:
            return await callback { session.perform(FormsFeature.inputOnly, input: "c", completion: $0) }
        case .sessionNoPresenterAsync: return await session.perform(FormsFeature.inputOnly, input: "c")
        case .sessionBareCallback: return await callback { session.perform(FormsFeature.bare, completion: $0) }
        case .sessionBareAsync: return await session.perform(FormsFeature.bare)
        case .verifiedAsync:
            guard let verified = FormsConditionalFeature.full.request(from: availability) else {
                return .failure(error: TestError.boom)
            }
            return await verified.perform(input: "v", presenter: presenter)
        case .verifiedBareCallback:
            guard let verified = FormsConditionalFeature.bare.request(from: availability) else {
                return .failure(error: TestError.boom)
            }
            return await callback { verified.perform(completion: $0) }
        case .verifiedInSessionCallback:
            guard let verified = FormsConditionalFeature.full.request(from: availability) else {
                return .failure(error: TestError.boom)
            }
            return await callback { session.perform(verified, input: "v", presenter: presenter, completion: $0) }
        case .verifiedInSessionAsync:
            guard let verified = FormsConditionalFeature.full.request(from: availability) else {
                return .failure(error: TestError.boom)
            }
            return await session.perform(verified, input: "v", presenter: presenter)
        }
    }

    private func callback(_ perform: (@escaping @Sendable (ActionOutcome) -> Void) -> Void) async -> ActionOutcome {
        await withCheckedContinuation { continuation in perform { continuation.resume(returning: $0) } }
    }
}

/// The sessions and recorder the spellings share; the suite is serialized.
enum FormsFixture {
    static let recorder = RecordingPlugin()
    static let dispatcher: ActionDispatcher = {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        dispatcher.add(plugin: recorder)
        return dispatcher
    }()
    static let defaultSession = ActionSession(named: "default", dispatcher: dispatcher)
    static let explicitSession = ActionSession(named: "explicit", dispatcher: dispatcher)
    static let availability: FeatureAvailability = {
        let availability = FeatureAvailability()
        try! availability.register(FormsConditionalFeature.self)  // one feature: its path cannot clash
        return availability
    }()
}

final class FormsPresenter: Sendable {
    enum Call: Equatable, Sendable { case shown(String) }
    let calls = Calls<Call>()
}

final class FullAction: Action {
    typealias InputType = String
    typealias PresenterType = FormsPresenter
    static var queue: DispatchQueue { TestQueues.other }
    static var defaultSession: ActionSession? { FormsFixture.defaultSession }

    static func perform(
        context: ActionContext<String>,
        presenter: FormsPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        presenter.calls.record(.shown(context.input))
        return completion.completedSync(.success)
    }
}

final class PresenterOnlyFormAction: Action {
    typealias PresenterType = FormsPresenter
    static var name: String { "Presenter Only" }
    static var queue: DispatchQueue { TestQueues.other }
    static var defaultSession: ActionSession? { FormsFixture.defaultSession }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: FormsPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        presenter.calls.record(.shown(context.input.loggingDescription))
        return completion.completedSync(.success)
    }
}

final class InputOnlyAction: Action {
    typealias InputType = String
    static var queue: DispatchQueue { TestQueues.other }
    static var defaultSession: ActionSession? { FormsFixture.defaultSession }

    static func perform(context: ActionContext<String>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class BareAction: Action {
    static var queue: DispatchQueue { TestQueues.other }
    static var defaultSession: ActionSession? { FormsFixture.defaultSession }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class SessionlessAction: Action {
    static var defaultSession: ActionSession? { nil }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class FormsFeature: Feature {
    static let full = action(FullAction.self)
    static let presenterOnly = action(PresenterOnlyFormAction.self)
    static let inputOnly = action(InputOnlyAction.self)
    static let bare = action(BareAction.self)
    static let sessionless = action(SessionlessAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(full)
        actions.declare(presenterOnly)
        actions.declare(inputOnly)
        actions.declare(bare)
        actions.declare(sessionless)
    }
}

final class FormsConditionalFeature: ConditionalFeature {
    static let full = action(FullAction.self)
    static let bare = action(BareAction.self)

    static func constraints(requirements: FeatureConstraintsBuilder) {}

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(full)
        actions.declare(bare)
    }
}
