import Dispatch
import Testing

@testable import ActuateCore
@testable import ActuateFixtures

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

enum TypeNamingOuter {
    struct Inner<Value> {}
}

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
            // Not ASCII: split character by character instead of byte by byte, to the same rules.
            ("CaféOrderAction", "Action", "Café Order"),
            ("ÜberURLFeature", "Feature", "Über URL"),
            ("Größe2DAction", "Action", "Größe 2D"),
            ("ÄÖÜAction", "Action", "ÄÖÜ"),
        ]
    )
    func displayNames(typeName: String, suffix: String, expected: String) {
        #expect(TypeNaming.displayName(of: typeName, removingSuffix: suffix) == expected)
    }

    @Test(
        "ASCII names split byte by byte as they do character by character",
        arguments: [
            "CreateNewTweetAction", "OpenURLAction", "HTTPRequestAction", "Show3DViewAction", "snake_caseAction",
            "Version2UpdateAction", "A1B2cC", "__Action", "Action_", "ABC", "aBC", "X9", "9X", "Setup07Step3Action",
            "Module.Outer.InnerAction<Swift.Array<Swift.Int>>", "URLFeature", "",
        ]
    )
    func asciiMatchesCharacters(typeName: String) {
        for suffix in ["Action", "Feature", ""] {
            let byCharacters = TypeNaming.characterDisplayName(of: typeName, removingSuffix: suffix)
            #expect(TypeNaming.displayName(of: typeName, removingSuffix: suffix) == byCharacters)
        }
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

    @Test(
        "type names are those String(describing:) and String(reflecting:) give, without asking about conformances",
        arguments: [
            CreateNewTweetAction.self, ShoppingCartFeature.self, NoInput.self, Void.self, Int?.self,
            TypeNamingOuter.Inner<String>.self, [String: Int].self, (Int, String).self,
            TypeNamingOuter.Inner<CreateNewTweetAction>.Type.self,
        ] as [Any.Type]
    )
    func typeNames(type: Any.Type) {
        #expect(TypeNaming.name(of: type) == String(describing: type))
        #expect(TypeNaming.name(of: type, qualified: true) == String(reflecting: type))
    }

    @Test("metadata and default names read the type names")
    func metadataNames() {
        let metadata = ActionMetadata(CreateNewTweetAction.self, published: false)
        #expect(metadata.typeName == "CreateNewTweetAction")
        #expect(metadata.inputTypeName == "NoInput")
        #expect(metadata.presenterTypeName == "NoPresenter")
        // Made from the stored action type when read: each of the action's own associated types.
        let greeting = ActionMetadata(SayHelloAction.self, published: false)
        #expect(greeting.typeName == "SayHelloAction")
        #expect(greeting.inputTypeName == "String")
        #expect(greeting.presenterTypeName == "GreetingPresenter")
        #expect(TypeNaming.displayName(of: ShoppingCartFeature.self, removingSuffix: "Feature") == "Shopping Cart")
        #expect(FeaturePath.component(for: ShoppingCartFeature.self) == "ShoppingCartFeature")
    }
}
