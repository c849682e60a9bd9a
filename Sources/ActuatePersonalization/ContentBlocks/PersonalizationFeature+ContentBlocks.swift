import Actuate

extension PersonalizationFeature {
    /// Records that a content block was shown.
    static let showContentBlock = action(ShowContentBlockAction.self)
    /// Records a click on an action inside a content block.
    static let clickContentBlock = action(ClickContentBlockAction.self)
    /// Records that a content block was closed.
    static let closeContentBlock = action(CloseContentBlockAction.self)
    /// Records that showing a content block failed.
    static let reportContentBlockError = action(ReportContentBlockErrorAction.self)

    /// Declares the content-block actions.
    static func declareContentBlockActions(_ actions: FeatureActionsBuilder) {
        actions.declare(showContentBlock)
        actions.declare(clickContentBlock)
        actions.declare(closeContentBlock)
        actions.declare(reportContentBlockError)
    }
}
