// The fixed names of DESIGN.md in their old spelling still compile (deprecation warnings only). After a build:
//   swiftc -typecheck -I .build/debug/Modules .ci/names/contract-check.swift

import Actuate
import ActuatePersonalization

final class OldPlugin: ActionDispatchObserver {
    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}
    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
}

struct OldCallback: ContentBlockCallback {
    func onMessageShown(placeholderId: String, contentBlock: ContentBlock) {}
    func onNoMessageFound(placeholderId: String) {}
    func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String) {}
    func onCloseClicked(placeholderId: String, contentBlock: ContentBlock) {}
    func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockAction) {}
}

func contract(
    dispatcher: ActionDispatcher,
    action: ContentAction,
    clicked: ActionClicked,
    campaign: Campaign,
    manager: ContentBlockManager,
    block: ContentBlock
) {
    let plugin = OldPlugin()
    dispatcher.add(observer: plugin)
    dispatcher.remove(observer: plugin)
    action.reportProductClick(productId: "p")
    action.reportArticleClick(articleId: "a")
    _ = clicked.actionId
    _ = (campaign.campaignId, campaign.experienceId, campaign.messageId)
    let placeholder = ContentBlockPlaceholder(placeholderId: "home", deferredLoad: true, manager: manager)
    _ = placeholder.placeholderId
    placeholder.behaviourCallback = OldCallback()
    placeholder.invokeActionClick(actionUrl: "shop://x")
    let callback: any ContentBlockCallback = OldCallback()
    callback.onActionClicked(placeholderId: "home", contentBlock: block, action: ContentBlockAction(url: "shop://x"))
}
