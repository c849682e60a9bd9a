import Actuate

extension PersonalizationFeature {
    /// Records that content was shown.
    static let showContent = action(ShowContentAction.self)
    /// Records a click on content's main target.
    static let clickContent = action(ClickContentAction.self)
    /// Records that content was closed.
    static let closeContent = action(CloseContentAction.self)
    /// Records a product click inside content.
    static let clickContentProduct = action(ClickContentProductAction.self)
    /// Records an article click inside content.
    static let clickContentArticle = action(ClickContentArticleAction.self)
    /// Records that presenting content failed.
    static let reportContentError = action(ReportContentErrorAction.self)
    /// Records that content was held back because the user closed it earlier.
    static let suppressContent = action(SuppressContentAction.self)
    /// Records a behaviour command.
    static let trackBehaviour = action(TrackBehaviourAction.self)
    /// Records a purchase.
    static let trackPurchase = action(TrackPurchaseAction.self)

    /// Declares the content-action and tracker actions.
    static func declareContentActions(_ actions: FeatureActionsBuilder) {
        actions.declare(showContent)
        actions.declare(clickContent)
        actions.declare(closeContent)
        actions.declare(clickContentProduct)
        actions.declare(clickContentArticle)
        actions.declare(reportContentError)
        actions.declare(suppressContent)
        actions.declare(trackBehaviour)
        actions.declare(trackPurchase)
    }
}
