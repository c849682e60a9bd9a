import Dispatch
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins
@testable import ActuateTesting

/// The README's "Testing an action" snippet and the double-completion one of the DocC article "Testing your
/// actions", copied verbatim (and indented) so that they are compiled and run,
/// inside a namespace so that the tour's type names stay free for other tests.
@Suite("README: Testing an action")
struct ReadmeTestingAnActionTests {
    // The tour's feature and action, as "A feature and an action" declares them.
    protocol CartPresenter: Sendable {
        func showCart(_ items: [String])
    }

    final class AddItemAction: Action {
        typealias InputType = String  // anything Loggable; NoInput when there is none
        typealias PresenterType = any CartPresenter

        static func perform(
            context: ActionContext<String>,
            presenter: any CartPresenter,
            completion: Completion
        )
            -> Completion.Status
        {
            presenter.showCart([context.input])
            return completion.completedSync(.success)
        }
    }

    final class CartFeature: Feature {
        static let addItem = action(AddItemAction.self)

        static func prepare(actions: FeatureActionsBuilder) {
            actions.publish(addItem)
        }
    }

    // The first snippet.
    final class MockCart: CartPresenter {
        enum Call: Equatable, Sendable { case showCart([String]) }
        let calls = Calls<Call>()
        func showCart(_ items: [String]) { calls.record(.showCart(items)) }
    }

    @Test func addsItem() async {
        let harness = ActionTestHarness()
        let cart = MockCart()
        #expect(await harness.perform(CartFeature.addItem, input: "sku-1", presenter: cart).isSuccess)
        #expect(cart.calls.recorded == [.showCart(["sku-1"])])
    }

    // The second snippet, and the faulty action it is about.
    final class SyncAction: Action {
        static var queue: DispatchQueue { TestQueues.background }

        static func perform(
            context: ActionContext<NoInput>,
            presenter: Void,
            completion: Completion
        )
            -> Completion.Status
        {
            _ = completion.completedSync(.success)
            return completion.completedSync(.success)
        }
    }

    final class LegacyFeature: Feature {
        static let sync = action(SyncAction.self)

        static func prepare(actions: FeatureActionsBuilder) {
            actions.declare(sync)
        }
    }

    @Test func reportsTheDoubleCompletion() async {
        let harness = ActionTestHarness()  // or ActionTestHarness(expectedDiagnostics: [.completedTwice])
        await harness.perform(LegacyFeature.sync)  // no input, no presenter: the short form
        #expect(harness.expectDiagnostic(.completedTwice)?.actionName == "Sync")
    }
}
