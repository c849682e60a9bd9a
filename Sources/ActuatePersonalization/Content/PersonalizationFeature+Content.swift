import Actuate

extension PersonalizationFeature {
    /// Records that content was shown.
    public static let showContent = action(ShowContentAction.self)
    /// Records a click on content's main target.
    public static let clickContent = action(ClickContentAction.self)
    /// Records that content was closed.
    public static let closeContent = action(CloseContentAction.self)
    /// Records a product click inside content.
    public static let clickContentProduct = action(ClickContentProductAction.self)
    /// Records an article click inside content.
    public static let clickContentArticle = action(ClickContentArticleAction.self)
    /// Records that presenting content failed.
    public static let reportContentError = action(ReportContentErrorAction.self)
    /// Records that content was held back because the user closed it earlier.
    public static let suppressContent = action(SuppressContentAction.self)
    /// Records a behaviour command.
    public static let trackBehaviour = action(TrackBehaviourAction.self)
    /// Records a purchase.
    public static let trackPurchase = action(TrackPurchaseAction.self)

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
