import Actuate
import Foundation
import Testing

/// The shop of the "Debugging with the timeline" article's example report: a group and the feature inside it.
private enum ArticleShop {
    final class AddToCartAction: Action {
        typealias InputType = String
        static func perform(
            context: ActionContext<String>,
            presenter: NoPresenter,
            completion: Completion
        )
            -> Completion.Status
        {
            completion.completedSync(.success)
        }
    }

    final class CartFeature: Feature {
        static let addToCart = action(AddToCartAction.self)
        static func prepare(actions: FeatureActionsBuilder) { actions.declare(addToCart) }
    }

    final class ShopFeatures: FeatureGroup {
        static let subfeatures: [any FeatureDefinition.Type] = [CartFeature.self]
    }
}

@Suite("The timeline article's example report")
struct TimelineArticleTests {
    /// The first timeline entry of the article's example `debug-report.json`.
    static func exampleEntry() throws -> [String: Any] {
        let path = "Sources/ActuatePlugins/ActuatePlugins.docc/DebuggingWithTheTimeline.md"
        let markdown = try String(
            contentsOf: ReadmeCompileTests.packageDirectory.appendingPathComponent(path),
            encoding: .utf8
        )
        let document = try MarkdownSwiftBlocks(markdown: markdown, name: path)
        let block = try #require(
            document.blocks.first { $0.language == "json" && $0.code.joined().contains("featurePath") }
        )
        let json = try JSONSerialization.jsonObject(with: Data(block.code.joined(separator: "\n").utf8))
        let report = try #require(json as? [String: Any])
        let timeline = try #require(report["timeline"] as? [String: Any])
        let entries = try #require(timeline["entries"] as? [[String: Any]])
        return try #require(entries.first)
    }

    @Test("its feature path and names are the ones a real report of that shop holds (not `ShopFeatures/Cart`)")
    func featurePathIsReal() async throws {
        let entry = try Self.exampleEntry()
        let system = try ActuateSystem.setup(group: ArticleShop.ShopFeatures.self)
        _ = await system.mainSession.perform(ArticleShop.CartFeature.addToCart, input: "sku-42", presenter: ())
        let real = try #require(system.timeline.snapshot().first)
        #expect(entry["featurePath"] as? String == real.featurePath)
        #expect(real.featurePath == "ShopFeatures/CartFeature")
        #expect(entry["featureName"] as? String == real.featureName)
        #expect(entry["actionName"] as? String == real.actionName)
    }
}
