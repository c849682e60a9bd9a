import Actuate
import Foundation
import Testing

private final class GreetAction: Action {
    typealias InputType = String
    static var description: String { "Says hello." }
    static var analyticsID: String? { "greeted" }

    static func perform(context: ActionContext<String>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class GreetingsFeature: Feature, URLMapped {
    static let greet = action(GreetAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(greet)
    }

    static func urlMappings(routes: URLMappingsBuilder<GreetingsFeature>) {
        routes.send("hello/$(name)", to: greet)
    }
}

private final class GreeterApp: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [GreetingsFeature.self] }
}

@Suite("actuate catalog")
struct CatalogCommandTests {
    private let catalog: ActionCatalog

    init() throws {
        catalog = try ActionCatalog(group: GreeterApp.self, routes: URLRouterConfiguration(appSchemes: ["greeter"]))
    }

    @Test("renders a catalog read from standard input as Markdown")
    func fromStandardInput() throws {
        let result = runTool(["catalog"], input: try catalog.jsonData())
        #expect(result.status == 0)
        #expect(result.error == "")
        #expect(result.output == catalog.markdown())
        #expect(result.output.contains("| **Greet** (published) | Says hello. | `String` | `NoPresenter` |"))
        #expect(result.output.contains("`greeter://hello/$(name)`"))
    }

    @Test("a catalog whose strings hold terminal escapes is printed with them escaped")
    func escapesCatalogStrings() throws {
        var json = String(decoding: try catalog.jsonData(), as: UTF8.self)
        json = json.replacingOccurrences(of: "Says hello.", with: #"Says hello.\u001b[2J"#)
        let result = runTool(["catalog"], input: Data(json.utf8))
        #expect(result.status == 0)
        #expect(!result.output.contains("\u{1B}"), "an escape reached the terminal")
        #expect(result.output.contains(#"Says hello.\u{1B}[2J"#))
    }

    @Test("reads a file, or a debug report's catalog section, and --json re-emits the catalog")
    func fromFiles() throws {
        let scratch = try ScratchDirectory()
        try catalog.jsonData().write(to: URL(fileURLWithPath: scratch.path("catalog.json")))
        #expect(runTool(["catalog", scratch.path("catalog.json")]).output == catalog.markdown())
        try DebugReport(reportables: [catalog]).write(to: scratch.url)
        let fromReport = runTool(["catalog", scratch.path("debug-report.json"), "--json"])
        #expect(fromReport.status == 0)
        #expect(try ActionCatalog.decode(from: Data(fromReport.output.utf8)) == catalog)
    }

    @Test(
        "bad catalogs fail with status 1 and a clear message",
        arguments: [
            (#"{"groupName": "A", "features": []}"#, "written before format 1"),
            (#"{"formatVersion": 4, "groupName": "A", "features": []}"#, "format 4"),
            (#"{"formatVersion": 1, "groupName": "A", "features": [{"name": "F"}]}"#, "is malformed"),
            (#"{"formatVersion": 1, "generatedAt": "x", "timeline": {}}"#, "is not an action catalog"),
            ("{", "is not valid JSON"),
            ("", "standard input is empty"),
        ]
    )
    func badCatalogs(json: String, message: String) {
        let result = runTool(["catalog", "-"], input: Data(json.utf8))
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error.contains(message))
    }

    @Test("with no file and a terminal on standard input, it explains how to pipe the catalog in")
    func terminalInput() {
        let result = runTool(["catalog"])
        #expect(result.status == 2)
        #expect(result.error.contains("swift run shop-demo --catalog-json | actuate catalog"))
    }

    @Test("a missing file is named in the error")
    func missingFile() {
        let result = runTool(["catalog", "/no/such/catalog.json"])
        #expect(result.status == 1)
        #expect(result.error == "actuate: cannot read the catalog /no/such/catalog.json: no such file\n")
    }
}
