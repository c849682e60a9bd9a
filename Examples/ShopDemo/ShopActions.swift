import Actuate
import ActuateReporting
import Dispatch
import Synchronization

/// The demo's cart, kept in memory. Actions read and change it; the presenter shows it.
final class Cart: Sendable {
    private let items = Mutex<[Product]>([])

    func add(_ product: Product) -> [Product] {
        items.withLock { items in
            items.append(product)
            return items
        }
    }

    var contents: [Product] { items.withLock { $0 } }
}

/// The input of actions that work on one product of a cart.
struct CartProductInput: Loggable {
    var cart: Cart
    var productID: String

    var loggingDescription: String { productID }
}

enum ShopError: Error, CustomStringConvertible {
    case unknownProduct(String)

    var description: String {
        switch self {
        case .unknownProduct(let id): "There is no product \(id)."
        }
    }
}

/// Shows one product. A callback action that completes synchronously, with analytics and an activity.
final class ShowProductAction: Action {
    typealias InputType = String
    typealias PresenterType = any ShopPresenter

    static var description: String { "Shows a product's details." }
    static var analyticsID: String? { "product_viewed" }
    static var activityEligibility: Set<ActivityEligibility> { [.handoff, .search] }

    static func analyticsAttributes<F: FeatureDefinition>(
        forRequest request: ActionRequest<F, ShowProductAction>
    ) -> [String: AnalyticsValue]? {
        ["productId": .string(request.context.input)]
    }

    static func prepareActivity(_ activity: ActivityBuilder<ShowProductAction>) throws {
        guard let product = Catalog().product(id: activity.input) else { return activity.cancel() }
        activity.title = "View \(product.name)"
        activity.keywords = ["coffee", product.name]
        activity.userInfo = ["productId": product.id]
        activity.requiredUserInfoKeys = ["productId"]
    }

    static func perform(
        context: ActionContext<String>,
        presenter: any ShopPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        let catalog: any ProductCatalog
        do {
            catalog = try context.dependency(CatalogKey.self)
        } catch {
            return completion.completedSync(.failure(error: error))
        }
        guard let product = catalog.product(id: context.input) else {
            return completion.completedSync(.failure(error: ShopError.unknownProduct(context.input)))
        }
        presenter.showProduct(product)
        return completion.completedSync(.success)
    }
}

/// Adds a product to the cart. A callback action that completes later, from another queue.
final class AddToCartAction: Action {
    typealias InputType = CartProductInput
    typealias PresenterType = any ShopPresenter

    static let storageQueue = DispatchQueue(label: "shop-demo.cart-storage")

    static func perform(
        context: ActionContext<CartProductInput>,
        presenter: any ShopPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        let catalog: any ProductCatalog
        do {
            catalog = try context.dependency(CatalogKey.self)
        } catch {
            return completion.completedSync(.failure(error: error))
        }
        guard let product = catalog.product(id: context.input.productID) else {
            return completion.completedSync(.failure(error: ShopError.unknownProduct(context.input.productID)))
        }
        let status = completion.willCompleteAsync()
        storageQueue.async {
            let items = context.input.cart.add(product)
            presenter.showCart(items)
            status.completed(.success)
        }
        return status
    }
}

/// Ends checkout: a feature-terminating outcome.
final class CheckoutAction: Action {
    typealias InputType = Cart
    typealias PresenterType = any ShopPresenter

    static func perform(
        context: ActionContext<Cart>,
        presenter: any ShopPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        presenter.showMessage("Order placed for \(context.input.contents.count) items.")
        return completion.completedSync(.successWithFeatureTermination)
    }
}

extension Cart: Loggable {
    var loggingDescription: String { "\(contents.count) items" }
}

/// Fetches recommendations: the demo's network-like step, written as an async action. Its outcomes are
/// recorded by the reporting layer.
final class FetchRecommendationsAction: AsyncAction, ReportedAction {
    static var reportEventType: ReportEventType { "recommendations_fetched" }

    typealias InputType = String
    typealias PresenterType = any ShopPresenter

    static let queue = DispatchQueue(label: "shop-demo.recommendations")

    static func perform(
        context: ActionContext<String>,
        presenter: any ShopPresenter
    ) async throws
        -> ActionPerformOutcome
    {
        let service = try context.dependency(RecommendationServiceKey.self)
        let recommended = try await service.recommendations(after: context.input)
        presenter.showRecommendations(recommended)
        return .success
    }
}

/// What recommends products: a dependency (``RecommendationServiceKey``), so that tests give it a fake instead of
/// reaching the network.
protocol RecommendationService: Sendable {
    func recommendations(after productID: String) async throws -> [Product]
}

/// The key of the recommendation service.
enum RecommendationServiceKey: DependencyKey {
    static var liveValue: any RecommendationService { CatalogRecommendationService(catalog: Catalog()) }
}

/// Pretends to be a remote recommendation service: recommends other products of a catalog.
struct CatalogRecommendationService: RecommendationService {
    let catalog: any ProductCatalog

    func recommendations(after productID: String) async throws -> [Product] {
        await Task.yield()
        try Task.checkCancellation()
        return catalog.products.filter { $0.id != productID }.prefix(2).map { $0 }
    }
}

/// Pays with the saved card in one tap: the premium feature's action.
final class ExpressCheckoutAction: Action {
    typealias InputType = Cart
    typealias PresenterType = any ShopPresenter

    static func perform(
        context: ActionContext<Cart>,
        presenter: any ShopPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        presenter.showMessage("Express checkout: paid for \(context.input.contents.count) items with the saved card.")
        return completion.completedSync(.successWithFeatureTermination)
    }
}
