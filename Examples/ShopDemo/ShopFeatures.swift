import Actuate

/// The shop's features, grouped so that their identifiers read `ShopFeatures/…`.
final class ShopFeatures: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] {
        [CatalogFeature.self, CartFeature.self, RecommendationsFeature.self, PremiumFeature.self]
    }
}

final class CatalogFeature: Feature, URLMapped {
    static var description: String { "Browsing products." }
    static let showProduct = action(ShowProductAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(showProduct)
    }

    static func urlMappings(routes: URLMappingsBuilder<CatalogFeature>) {
        routes.send("product/$(id)", to: showProduct)
    }
}

final class CartFeature: Feature {
    static let addToCart = action(AddToCartAction.self)
    static let checkout = action(CheckoutAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(addToCart)
        actions.declare(checkout)
    }
}

final class RecommendationsFeature: Feature {
    static let fetch = action(FetchRecommendationsAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(fetch)
    }
}

/// One-tap checkout, available only to users who switched it on.
final class PremiumFeature: ConditionalFeature {
    static let expressCheckout = action(ExpressCheckoutAction.self)

    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(expressCheckout)
    }
}
