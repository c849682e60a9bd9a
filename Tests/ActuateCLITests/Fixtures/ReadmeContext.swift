// The app around README.md's Swift snippets: what they use without declaring it. ReadmeCompileTests compiles
// this file with every snippet, as one module.
import Actuate
import ActuateTesting
import Foundation

/// The cart screen of the tour.
struct CartView: CartPresenter {
    func showCart(_ items: [String]) {}
}

let cartView = CartView()

/// Where the deferred-completion snippet saves its input.
struct ItemStorage: Sendable {
    func save(_ item: String, completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
}

let storage = ItemStorage()

/// The action whose body the deferred-completion snippet shows.
final class SaveItemAction: Action {
    typealias InputType = String
    typealias PresenterType = any CartPresenter
}

/// The presenter of the `AsyncAction` snippet.
protocol ShopPresenter: Sendable {
    func showRecommendations(_ products: [String])
}

/// The service the `AsyncAction` snippet awaits.
struct RecommendationService: Sendable {
    func recommendations(after item: String) async throws -> [String] { [item] }
}

let service = RecommendationService()

/// An old action that completes twice, which the harness snippet expects to be reported.
final class SyncAction: Action {
    static func perform(context: ActionContext<NoInput>, presenter: NoPresenter, completion: Completion)
        -> Completion.Status {
        _ = completion.completedSync(.success)
        return completion.completedSync(.success)
    }
}

/// The feature of ``SyncAction``.
final class LegacyFeature: Feature {
    static let sync = action(SyncAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(sync)
    }
}
