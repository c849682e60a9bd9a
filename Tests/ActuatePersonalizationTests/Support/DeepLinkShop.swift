import Dispatch
import Foundation
import Synchronization

@testable import ActuateCore
@testable import ActuatePlugins

/// Shows a product: the action a `shop://product/$(id)` deep link performs.
final class OpenProductAction: Action {
    typealias InputType = String

    static let serialQueue = DispatchQueue(label: "actuate.tests.deep-link-shop")
    static var queue: DispatchQueue { serialQueue }

    static func perform(context: ActionContext<String>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// A feature whose products have the route `product/$(id)`, in every scope.
final class DeepLinkProductsFeature: Feature, URLMapped {
    static let openProduct = action(OpenProductAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(openProduct)
    }

    static func urlMappings(routes: URLMappingsBuilder<DeepLinkProductsFeature>) {
        routes.send("product/$(id)", to: openProduct)
    }
}

/// An app wired as the issue describes: scheme `shop`, universal-link host `shop.example.com`, an isolated
/// system whose router records every URL it opens.
final class DeepLinkShop: Sendable {
    let system: ActuateSystem
    let openings = RecordingRouteObserver()

    init() throws {
        system = try ActuateSystem.setup(
            group: DeepLinkProductsFeature.self,
            dispatching: .isolated(completionTimeout: nil),
            configuration: ActuateConfiguration(
                routes: URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"])
            )
        )
        system.router.add(observer: openings)
    }

    /// The inputs of the actions performed from an opened URL, per the system's timeline.
    var routedInputs: [String] {
        system.timeline.snapshot().filter { $0.source == .openURL }.map(\.inputDescription)
    }
}

/// Records each URL a router opens, with what happened.
final class RecordingRouteObserver: URLRouteObserver {
    private let recorded = Mutex<[String]>([])

    func urlRouter(_ router: URLRouter, didOpen opening: URLOpening) {
        recorded.withLock { $0.append("\(opening.url.absoluteString) → \(opening.result)") }
    }

    /// Each opening as `URL → result`.
    var all: [String] { recorded.withLock { $0 } }
}
