import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins
@testable import ActuateTesting

// MARK: - Fixtures

/// Records the orders it was asked to show.
final class OrderScreen: Sendable {
    private let shown = Mutex<[String]>([])
    func show(_ order: String) { shown.withLock { $0.append(order) } }
    var orders: [String] { shown.withLock { $0 } }
}

/// An intent action with a single-value input and a presenter; an empty order fails.
final class IntentReorderAction: IntentAction {
    typealias InputType = String
    typealias PresenterType = OrderScreen
    static var queue: DispatchQueue { TestQueues.background }
    static var suggestedInvocationPhrase: String? { "Reorder my coffee" }
    static func intentTitle(for input: String) -> String { "Reorder \(input)" }

    static func perform(
        context: ActionContext<String>,
        presenter: OrderScreen,
        completion: Completion
    )
        -> Completion.Status
    {
        guard !context.input.isEmpty else { return completion.completedSync(.failure(error: FetchFailed(id: 0))) }
        presenter.show(context.input)
        return completion.completedSync(.success)
    }
}

/// An intent action with named parameters and no presenter, keeping the default title.
final class IntentFindProductAction: IntentAction {
    typealias InputType = LinkedProduct
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<LinkedProduct>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

/// Not an intent action: never donated.
final class IntentlessNoteAction: Action {
    typealias InputType = String
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<String>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class IntentOrdersFeature: Feature {
    static let reorder = action(IntentReorderAction.self)
    static let findProduct = action(IntentFindProductAction.self)
    static let note = action(IntentlessNoteAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(reorder)
        actions.declare(findProduct)
        actions.declare(note)
    }
}

// MARK: - Tests

/// Issue 22, point 14: "`ActionSource.intent` exists but nothing produces it"; Flint donates an action's intents
/// (`associatedIntents(withInput:)`) when it is performed, with its `suggestedInvocationPhrase`.
@Suite("Intents")
struct IntentRouterTests {
    private struct Setup {
        let donor = RecordingIntentDonor()
        let harness: ActionTestHarness
        let router = IntentRouter()
        let screen = OrderScreen()

        init() {
            harness = ActionTestHarness(plugins: [IntentDonationPlugin(donor: donor)])
        }

        var completed: [ActionRequestSummary] {
            harness.recorder.events.compactMap { if case .completed(let request, _, _) = $0 { request } else { nil } }
        }
    }

    @Test("a successful intent action donates its title, phrase and parameters; other actions donate nothing")
    func donates() async throws {
        let setup = Setup()
        await setup.harness.perform(IntentOrdersFeature.reorder, input: "o-17", presenter: setup.screen)
        await setup.harness.perform(IntentOrdersFeature.reorder, input: "", presenter: setup.screen)
        await setup.harness.perform(IntentOrdersFeature.note, input: "hello")
        await setup.harness.perform(IntentOrdersFeature.findProduct, input: LinkedProduct(id: 42, ref: "siri"))

        #expect(setup.donor.donations.count == 2)
        let reorder = try #require(setup.donor.donations.first)
        #expect(reorder.identifier == "IntentOrdersFeature.IntentReorderAction")
        #expect(reorder.identifier == IntentDescriptor.identifier(for: IntentOrdersFeature.reorder))
        #expect(reorder.title == "Reorder o-17")
        #expect(reorder.suggestedInvocationPhrase == "Reorder my coffee")
        #expect(reorder.parameters == [IntentDescriptor.singleValueParameterName: "o-17"])
        #expect(reorder.actionName == "Intent Reorder")
        #expect(reorder.featurePath == IntentOrdersFeature.identifier)
        #expect(reorder == IntentDescriptor(IntentOrdersFeature.reorder, input: "o-17"))

        let find = try #require(setup.donor.last)
        #expect(find.title == "Intent Find Product")
        #expect(find.suggestedInvocationPhrase == nil)
        #expect(find.parameters == ["id": "42", "ref": "siri"])
    }

    @Test("performing a donated intent runs the action with source intent and its input, on virtual time")
    func performsDonatedIntent() async throws {
        let setup = Setup()
        await setup.harness.perform(IntentOrdersFeature.reorder, input: "o-17", presenter: setup.screen)
        let donated = try #require(setup.donor.last)
        setup.harness.scheduler.advance(by: .seconds(3_600))
        let screen = setup.screen
        setup.router.register(IntentOrdersFeature.reorder) { screen }

        let result = await setup.router.perform(donated, session: setup.harness.session)

        #expect(result == .performed(.success))
        #expect(setup.screen.orders == ["o-17", "o-17"])
        let performed = try #require(setup.completed.last)
        #expect(setup.completed.count == 2)
        #expect(performed.source == .intent)
        #expect(performed.inputDescription == "o-17")
        #expect(performed.userInitiated)
        #expect(performed.date == setup.harness.scheduler.now())
        #expect(performed.date.timeIntervalSince(setup.completed[0].date) == 3_600)
        #expect(setup.donor.donations.count == 1, "an action performed from an intent is not donated again")
    }

    @Test("named parameters decode into the input; a failing action's outcome comes back")
    func namedParametersAndFailure() async throws {
        let setup = Setup()
        setup.router.register(IntentOrdersFeature.findProduct)
        let screen = setup.screen
        setup.router.register(IntentOrdersFeature.reorder) { screen }

        let found = await setup.router.perform(
            IntentDescriptor(IntentOrdersFeature.findProduct, input: LinkedProduct(id: 5, ref: "shortcut")),
            session: setup.harness.session
        )
        #expect(found.isSuccess)
        #expect(setup.completed.last?.inputDescription == "id=5 ref=shortcut")
        #expect(setup.completed.last?.source == .intent)

        let failed = await setup.router.perform(
            identifier: IntentDescriptor.identifier(for: IntentOrdersFeature.reorder),
            parameters: ["value": ""],
            session: setup.harness.session
        )
        #expect(failed == .performed(.failure(error: FetchFailed(id: 0))))
    }

    @Test("unknown intents, bad or oversized parameters and a missing presenter perform nothing")
    func refusals() async throws {
        let setup = Setup()
        setup.router.register(IntentOrdersFeature.findProduct)
        setup.router.register(IntentOrdersFeature.reorder) { nil }
        let find = IntentDescriptor.identifier(for: IntentOrdersFeature.findProduct)
        let session = setup.harness.session

        let unknown = await setup.router.perform(identifier: "Nope.NoAction", parameters: [:], session: session)
        #expect(unknown == .unknownIntent)
        #expect(
            await setup.router.perform(identifier: find, parameters: ["id": "x"], session: session)
                == .badParameters(RouteParameterError.invalid(name: "id", value: "x", reason: "not a valid Int"))
        )
        #expect(
            await setup.router.perform(identifier: find, parameters: [:], session: session)
                == .badParameters(RouteParameterError.missing(name: "id"))
        )
        let many = Dictionary(uniqueKeysWithValues: (0...IntentRouter.maximumParameterCount).map { ("k\($0)", "v") })
        #expect(
            await setup.router.perform(identifier: find, parameters: many, session: session)
                == .badParameters(IntentParametersError.tooMany(count: IntentRouter.maximumParameterCount + 1))
        )
        let long = String(repeating: "9", count: IntentRouter.maximumValueLength + 1)
        #expect(
            await setup.router.perform(identifier: find, parameters: ["id": long], session: session)
                == .badParameters(IntentParametersError.tooLong(name: "id"))
        )
        #expect(
            await setup.router.perform(
                identifier: IntentDescriptor.identifier(for: IntentOrdersFeature.reorder),
                parameters: ["value": "o-1"],
                session: session
            ) == .presenterUnavailable(action: "Intent Reorder")
        )
        setup.router.unregister(identifier: find)
        #expect(setup.router.identifiers == [IntentDescriptor.identifier(for: IntentOrdersFeature.reorder)])
        #expect(setup.completed.isEmpty)
    }
}
