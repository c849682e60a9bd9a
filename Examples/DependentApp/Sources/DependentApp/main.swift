import Actuate

/// A presenter that prints what the action shows.
struct PrintingCart: CartPresenter {
    func showCart(_ items: [String]) { print("cart:", items) }
}

protocol CartPresenter: Sendable {
    func showCart(_ items: [String])
}

final class AddItemAction: Action {
    typealias InputType = String
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

// The README's "Or await it", in top-level code: the outcome, not `()`.
let outcome = await CartFeature.addItem.perform(input: "sku-1", presenter: PrintingCart())
let typed: ActionOutcome = outcome
print("awaited outcome:", typed.isSuccess ? "success" : "failure")
guard typed.isSuccess else { fatalError("the awaited perform did not succeed") }
