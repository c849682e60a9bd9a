// The app around README.md's Swift snippets: what they use without declaring it. ReadmeCompileTests type-checks
// this file with every snippet, as one module; DocCArticleCompileTests adds the DocC articles' snippets and
// ArticleContext.swift. It is never run, so the few `try!` below never trap.
import Actuate
import ActuatePersonalization
import ActuateReporting
import ActuateTesting
import Foundation
import Synchronization

// MARK: - The tour

/// The cart screen of the tour.
struct CartView: CartPresenter {
    func showCart(_ items: [String]) {}
}

let cartView = CartView()

/// Where the deferred-completion snippet saves its input: a dependency (`ItemStorageKey`), never a global.
struct ItemStorage: Sendable {
    func save(_ item: String, completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
}

/// The presenter of the `AsyncAction` snippet.
protocol ShopPresenter: Sendable {
    func showRecommendations(_ products: [String])
}

/// The service the `AsyncAction` snippet awaits: a dependency (`RecommendationServiceKey`).
struct RecommendationService: Sendable {
    func recommendations(after item: String) async throws -> [String] { [item] }
}

/// An old action that completes twice, which the harness snippet expects to be reported.
final class SyncAction: Action {
    static func perform(
        context: ActionContext<NoInput>,
        presenter: NoPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        _ = completion.completedSync(.success)
        return completion.completedSync(.success)
    }
}

/// The feature of ``SyncAction``.
final class LegacyFeature: Feature {
    static let sync = action(SyncAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(sync)
    }
}

/// The dispatcher the plugin snippets add to: the one behind `ActionSession.main`.
let dispatcher = ActionDispatcher.shared

/// Where the debug report is written.
let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("shop-debug-report")

// MARK: - Plugins

/// The app's feature group.
final class AppFeatures: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [
        CartFeature.self, CatalogFeature.self, OrdersFeature.self,
    ]
}

/// An analytics SDK's adapter.
struct MyAnalytics: AnalyticsProvider {
    func track(_ event: AnalyticsEvent) {}
}

/// Another analytics SDK's adapter.
typealias MySDK = MyAnalytics

/// The app's system, as the plugin snippet sets it up.
let system = try! ActuateSystem.setup(group: AppFeatures.self)

/// The session the activity snippet performs in.
let session = ActionSession(named: "shop", dispatcher: dispatcher)

/// Shows a product; routed from `shop://product/ID`, and published as an activity.
final class ViewProductAction: Action {
    typealias InputType = String
    static var activityEligibility: Set<ActivityEligibility> { [.handoff] }
    static func prepareActivity(_ activity: ActivityBuilder<ViewProductAction>) throws {
        activity.userInfo["sku"] = activity.input
    }
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

/// The catalog, whose product views the activity snippet continues.
final class CatalogFeature: Feature {
    static let viewProduct = action(ViewProductAction.self)
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(viewProduct) }
}

/// What the checkout action takes.
struct Basket: Loggable {
    var items: [String]
    var loggingDescription: String { "\(items.count) items" }
}

/// Scans a code with the camera.
final class ScanAction: Action {
    static func perform(
        context: ActionContext<NoInput>,
        presenter: NoPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

/// The app's schemes and universal-link hosts.
let routes = URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"])

// MARK: - Reporting

let supportDirectory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("shop-support")
let eventsDirectory = supportDirectory.appendingPathComponent("events")
let collectorURL = URL(string: "https://collector.example.com/v1/events")!
let apiKey = "collector-api-key"
let segmentWriteKey = "segment-write-key"

/// The app's event store and reporter, as the reporting snippet makes them.
let store = try! FileEventStore(directory: eventsDirectory)
let reporter = Reporter(
    store: store,
    delivery: nil,
    scheduler: SystemScheduler.shared,
    identity: Identity(storage: FileIdentityStorage(directory: supportDirectory))
)

/// What the pay action takes: the card number never prints.
struct Payment: Loggable {
    var card: Redacted<String>
    var amount: Int
    var loggingDescription: String { "\(card.loggingDescription), \(amount)" }
}

// MARK: - Personalization

let rulesURL = URL(fileURLWithPath: "Examples/Rules/personalization-rules.json")

/// A web view of the app: a `WebKitHTMLSurface` on Apple platforms. This one shows nothing and reports the load.
final class AppWebView: HTMLSurface {
    func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        completion(.loaded(size: nil))
    }
}

let bannerSurface = AppWebView()
let homeView = AppWebView()
let carouselView = AppWebView()
let cellView = AppWebView()

/// The app's UI, as the personalization snippets drive it.
func hideBanner() {}
func showNatively(_ items: [[String: String]]) {}
func setHomeHeight(_ height: Double) {}
func setHomeHidden(_ hidden: Bool) {}
func reloadRow(_ row: ContentBlockRow) {}

let tracker = Tracker(
    source: try! LocalDecisionSource(contentsOf: rulesURL),
    reporter: reporter,
    directory: supportDirectory.appendingPathComponent("tracker")
)

/// A content action the tracker returned, and a click its bridge reported.
let action = ContentAction(id: 7, name: "Spring banner", contentType: "text/html", content: "<p>Spring sale</p>")
let clicked = ActionClicked(actionID: 7, status: .close, arg: "2")

/// The banner a campaign handler fills.
final class BannerView: Sendable {
    func show(_ data: [String: JSONValue]) {}
}

let banner = BannerView()

/// Opens the links content blocks report.
struct AppURLOpener: ContentBlockURLOpener {
    func open(_ url: URL) {}
}

let opener = AppURLOpener()

/// The content blocks of the home screen, as the content-block snippet makes them.
let manager = ContentBlockManager(
    source: try! LocalContentBlockSource(contentsOf: rulesURL),
    reporter: reporter,
    directory: supportDirectory.appendingPathComponent("content-blocks")
)
let home = ContentBlockPlaceholder(placeholderID: "home", deferredLoad: true, manager: manager, surface: homeView)
let block = ContentBlock(id: "welcome", name: "Welcome", placeholders: ["home"], html: "<p>Welcome</p>")
let indexPath = IndexPath(indexes: [0, 3])  // section 0, row 3

/// More of the app's UI.
func askForCameraAccess() {}
func setCarouselHidden(_ hidden: Bool) {}
func setRowHidden(_ row: ContentBlockRow, _ hidden: Bool) {}
func setHeight(of row: ContentBlockRow, to height: Double) {}

/// What the campaign test snippet is given: a source, the campaigns its handler saw, and a product to view.
let source = try! LocalCampaignSource(data: Data(#"{"campaigns": []}"#.utf8), name: "campaigns.json")
let shoes = try! Product(id: "sku-1", name: "Trail shoes", price: 89, currency: "EUR")

/// The campaigns a test's handler received.
final class ShownCampaigns: Sendable {
    private let campaigns = Mutex<[Campaign]>([])

    func append(_ campaign: Campaign) {
        campaigns.withLock { $0.append(campaign) }
    }

    var all: [Campaign] { campaigns.withLock { $0 } }
}

let shown = ShownCampaigns()

// MARK: - Intents

/// Reorders a product by its id: an action Siri and Shortcuts can run.
final class ReorderAction: IntentAction {
    static var suggestedInvocationPhrase: String? { "Reorder my coffee" }
    static func intentTitle(for input: String) -> String { "Reorder \(input)" }
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

/// The feature of the intents snippet.
final class OrdersFeature: Feature {
    static let reorder = action(ReorderAction.self)
    static func prepare(actions: FeatureActionsBuilder) { actions.publish(reorder) }
}
