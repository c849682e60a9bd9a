import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

/// The mapping `UserActivityPublisher` applies to an `NSUserActivity` on Apple platforms, tested on every platform.
@Suite("UserActivityAttributes")
struct UserActivityAttributesTests {
    private static func activity(
        url: String?,
        eligibility: Set<ActivityEligibility>,
        phrase: String? = "Show my cart"
    ) -> PublishedActivity {
        PublishedActivity(
            activityType: "com.example.shop.cart",
            title: "Cart",
            keywords: ["cart", "basket"],
            userInfo: ["sku": "p1"],
            requiredUserInfoKeys: ["sku"],
            url: url.flatMap(URL.init(string:)),
            eligibility: eligibility,
            suggestedInvocationPhrase: phrase,
            actionName: "Show Cart",
            featurePath: FeaturePath(["ShopFeatures", "CartFeature"])
        )
    }

    @Test("type, title, keywords and user info are copied; each eligibility sets its own flag")
    func fields() {
        let attributes = UserActivityAttributes(
            Self.activity(url: "https://shop.example.com/cart", eligibility: [.handoff, .publicIndexing])
        )
        #expect(attributes.activityType == "com.example.shop.cart")
        #expect(attributes.title == "Cart")
        #expect(attributes.keywords == ["cart", "basket"])
        #expect(attributes.userInfo == ["sku": "p1"])
        #expect(attributes.requiredUserInfoKeys == ["sku"])
        #expect(attributes.isEligibleForHandoff && attributes.isEligibleForPublicIndexing)
        #expect(!attributes.isEligibleForSearch && !attributes.isEligibleForPrediction)
    }

    @Test(
        "the web page URL is set only for http and https URLs",
        arguments: [
            ("https://shop.example.com/cart", true), ("HTTP://shop.example.com/", true), ("shop://cart", false),
            ("mailto:help@example.com", false), (nil, false),
        ] as [(String?, Bool)]
    )
    func webpageURL(url: String?, kept: Bool) {
        let attributes = UserActivityAttributes(Self.activity(url: url, eligibility: [.search]))
        #expect((attributes.webpageURL != nil) == kept)
    }

    /// Flint's `Action.activityEligibility`: "If you just want Siri proactive suggestions, use `[.perform]`."
    @Test("perform makes the activity eligible for prediction (Siri suggestions), without search or a phrase")
    func performIsSuggestionsOnly() {
        let attributes = UserActivityAttributes(Self.activity(url: nil, eligibility: [.perform]))
        #expect(attributes.isEligibleForPrediction)
        #expect(!attributes.isEligibleForSearch && !attributes.isEligibleForHandoff)
        #expect(!attributes.isEligibleForPublicIndexing)
        #expect(attributes.suggestedInvocationPhrase == nil)
    }

    /// Flint's `ActivityBuilder`: "Force search eligibility as this is required for prediction too".
    @Test("prediction makes the activity eligible for search too, as Flint does")
    func predictionForcesSearch() {
        let attributes = UserActivityAttributes(Self.activity(url: nil, eligibility: [.prediction]))
        #expect(attributes.isEligibleForPrediction && attributes.isEligibleForSearch)
        #expect(!attributes.isEligibleForHandoff && !attributes.isEligibleForPublicIndexing)
    }

    @Test("the invocation phrase goes with prediction only")
    func invocationPhrase() {
        #expect(
            UserActivityAttributes(Self.activity(url: nil, eligibility: [.prediction])).suggestedInvocationPhrase
                == "Show my cart"
        )
        #expect(
            UserActivityAttributes(Self.activity(url: nil, eligibility: [.search])).suggestedInvocationPhrase == nil
        )
    }
}
