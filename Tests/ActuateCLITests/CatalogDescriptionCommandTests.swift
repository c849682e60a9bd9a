import Actuate
import Foundation
import Testing

private final class WaveAction: Action {
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class NodAction: Action {
    static var description: String { "Nods." }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class GesturesFeature: Feature {
    static let wave = action(WaveAction.self)
    static let nod = action(NodAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(wave)
        actions.publish(nod)
    }
}

@Suite("actuate catalog: actions without a description")
struct CatalogDescriptionCommandTests {
    @Test("the text output names the actions without a description and marks their rows")
    func textFlagsThem() throws {
        let catalog = try ActionCatalog(group: GesturesFeature.self)
        let result = runTool(["catalog"], input: try catalog.jsonData())
        #expect(result.status == 0)
        #expect(result.output.contains("⚠ 1 action has no description: **Wave** (`WaveAction`).\n"))
        #expect(result.output.contains("| **Wave** (published) | ⚠ No description | `NoInput` |"))
        #expect(result.output.contains("| **Nod** (published) | Nods. | `NoInput` |"))
        // A debug report's text has the same flags.
        #expect(DebugReport(reportables: [catalog]).text().contains("⚠ 1 action has no description"))
    }

    @Test("--json keeps hasDescription, false for the action without one")
    func jsonFlagsThem() throws {
        let catalog = try ActionCatalog(group: GesturesFeature.self)
        let result = runTool(["catalog", "--json"], input: try catalog.jsonData())
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let actions = (object?["features"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]]
        #expect(actions?.map { $0["name"] as? String } == ["Wave", "Nod"])
        #expect(actions?.map { $0["hasDescription"] as? Bool } == [false, true])
    }
}
