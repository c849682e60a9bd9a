import Foundation
import Testing

@testable import ActuateCore

private final class DescribedAction: Action {
    static var description: String { "Saves the draft." }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class UndescribedAction: Action {
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class BlankDescriptionAction: Action {
    static var description: String { "  \n" }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class DraftsFeature: Feature {
    static let save = action(DescribedAction.self)
    static let discard = action(UndescribedAction.self)
    static let blank = action(BlankDescriptionAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(save)
        actions.declare(discard)
        actions.declare(blank)
    }
}

@Suite("Action descriptions")
struct ActionDescriptionTests {
    @Test("An action without a description says so, in Flint's words: \"No description\"")
    func defaultSaysNoneWasWritten() {
        // Flint: "The default alerts you to the fact there is no description."
        #expect(UndescribedAction.description == "No description")
        #expect(ActionDescription.missing == "No description")
        #expect(DescribedAction.description == "Saves the draft.")
        #expect(ActionDescription.isMissing(UndescribedAction.description))
        #expect(ActionDescription.isMissing(BlankDescriptionAction.description))
        #expect(!ActionDescription.isMissing(DescribedAction.description))
    }

    @Test("The catalog flags the actions without a description, the default or a blank one")
    func catalogFlagsThem() throws {
        let catalog = try ActionCatalog(group: DraftsFeature.self)
        #expect(catalog.allActions.map(\.hasDescription) == [true, false, false])
        #expect(catalog.actionsWithoutDescription.map(\.typeName) == ["UndescribedAction", "BlankDescriptionAction"])
        #expect(catalog.allActions[1].description == "No description")
    }

    @Test("The Markdown names them under the summary and marks their rows")
    func markdownFlagsThem() throws {
        let markdown = try ActionCatalog(group: DraftsFeature.self).markdown()
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[2] == "1 feature, 3 actions (1 published).")
        #expect(
            lines[4]
                == "⚠ 2 actions have no description: **Undescribed** (`UndescribedAction`), "
                + "**Blank Description** (`BlankDescriptionAction`)."
        )
        #expect(lines.contains { $0.hasPrefix("| **Described** (published) | Saves the draft. |") })
        #expect(lines.contains { $0.hasPrefix("| **Undescribed** | ⚠ No description |") })
        #expect(lines.contains { $0.hasPrefix("| **Blank Description** | ⚠ No description |") })
    }

    @Test("A catalog whose actions all have descriptions has no flag")
    func noFlagWhenAllDescribed() {
        let catalog = ActionCatalog(
            groupName: "App",
            features: [
                .init(
                    name: "Drafts",
                    path: "Drafts",
                    actions: [.init(name: "Save", typeName: "SaveAction", description: "Saves.", queueLabel: "main")]
                )
            ]
        )
        #expect(catalog.actionsWithoutDescription.isEmpty)
        #expect(!catalog.markdown().contains("⚠"))
    }

    @Test("The JSON carries hasDescription per action, and reading derives it from the description")
    func jsonCarriesTheFlag() throws {
        let catalog = try ActionCatalog(group: DraftsFeature.self)
        let json = try #require(try JSONSerialization.jsonObject(with: catalog.jsonData()) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let actions = try #require(features.first?["actions"] as? [[String: Any]])
        #expect(actions.map { $0["hasDescription"] as? Bool } == [true, false, false])
        #expect(try ActionCatalog.decode(from: catalog.jsonData()) == catalog)

        // A catalog written before the flag existed (no hasDescription) is read with it, and a document cannot
        // claim a description it does not have.
        var text = String(decoding: try catalog.jsonData(), as: UTF8.self)
        text = text.replacingOccurrences(of: #""hasDescription" : false,"#, with: "")
        text = text.replacingOccurrences(of: #""hasDescription" : true,"#, with: #""hasDescription" : false,"#)
        #expect(!text.contains(#""hasDescription" : true"#))
        let read = try ActionCatalog.decode(from: Data(text.utf8))
        #expect(read.allActions.map(\.hasDescription) == [true, false, false])
        #expect(read == catalog)
    }
}
