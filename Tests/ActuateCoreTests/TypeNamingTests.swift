import Dispatch
import Testing

@testable import ActuateCore

final class CreateNewTweetAction: Action {
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class OpenURLAction: Action {
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class ShoppingCartFeature: Feature {}

@Suite("Default names")
struct TypeNamingTests {
    @Test(
        "split at CamelCase boundaries with the suffix removed",
        arguments: [
            ("CreateNewTweetAction", "Action", "Create New Tweet"),
            ("OpenURLAction", "Action", "Open URL"),
            ("HTTPRequestAction", "Action", "HTTP Request"),
            ("ShoppingCartFeature", "Feature", "Shopping Cart"),
            ("URLFeature", "Feature", "URL"),
            ("Action", "Action", "Action"),
            ("Show3DViewAction", "Action", "Show 3D View"),
            ("Module.NestedThingAction", "Action", "Nested Thing"),
            ("GenericAction<Swift.Int>", "Action", "Generic"),
            ("snake_caseAction", "Action", "snake case"),
            ("Version2UpdateAction", "Action", "Version 2 Update"),
        ]
    )
    func displayNames(typeName: String, suffix: String, expected: String) {
        #expect(TypeNaming.displayName(of: typeName, removingSuffix: suffix) == expected)
    }

    @Test("actions and features use them by default")
    func defaults() {
        #expect(CreateNewTweetAction.name == "Create New Tweet")
        #expect(OpenURLAction.name == "Open URL")
        #expect(ShoppingCartFeature.name == "Shopping Cart")
        #expect(CreateNewTweetAction.queue.label == DispatchQueue.main.label)
        #expect(CreateNewTweetAction.defaultSession === ActionSession.main)
        #expect(CreateNewTweetAction.hideFromTimeline == false)
        #expect(CreateNewTweetAction.analyticsID == nil)
        #expect(CreateNewTweetAction.activityEligibility.isEmpty)
        #expect(CreateNewTweetAction.suggestedInvocationPhrase == nil)
    }
}
