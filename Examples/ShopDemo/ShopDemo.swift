import Actuate
import Foundation

/// `swift run shop-demo`: walks through Actuate's capabilities on embedded defaults.
@main
struct ShopDemo {
    static func main() async {
        let options = DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        if options.showHelp {
            print(DemoOptions.help)
            return
        }
        FeatureRegistry.shared.register(ShopFeatures.self)
        let timeline = Timeline(maxEntries: 200)
        ActionDispatcher.shared.add(observer: timeline)
        let presenter = TerminalPresenter()
        let cart = Cart()

        section("1. Features and actions")
        await CatalogFeature.showProduct.perform(input: "p1", presenter: presenter)
        await CartFeature.addToCart.perform(input: CartProductInput(cart: cart, productID: "p1"), presenter: presenter)
        let missing = await CatalogFeature.showProduct.perform(input: "p404", presenter: presenter)
        print("   Showing an unknown product fails as it should: \(missing.error.map { "\($0)" } ?? "no error")")

        section("2. An async action (the recommendation service)")
        await RecommendationsFeature.fetch.perform(input: "p1", presenter: presenter)
        await CartFeature.addToCart.perform(input: CartProductInput(cart: cart, productID: "p2"), presenter: presenter)
        await CartFeature.checkout.perform(input: cart, presenter: presenter)

        section("Timeline")
        print(timeline.textDump().split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))

        if let directory = options.dumpDirectory {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let files = try DebugReport(reportables: [timeline]).write(to: directory)
                print("\nDebug report written to \(files.json.path) and \(files.text.path)")
            } catch {
                FileHandle.standardError.write(Data("shop-demo: could not write the debug report: \(error)\n".utf8))
                exit(1)
            }
        }
    }

    private static func section(_ title: String) {
        print("\n\(title)")
    }
}
