// The app around the `///` comments' Swift examples, beyond ReadmeContext.swift and ArticleContext.swift: what only
// the documentation comments use without declaring it. DocCommentCompileTests type-checks it with the README's,
// the articles' and the comments' snippets, as one module; it is never run, so the few `try!` below never trap.
import Actuate
import ActuatePersonalization
import ActuateReporting
import ActuateTesting
import Foundation

// MARK: - Actions and features the examples extend

/// The article a ``ShowArticleAction`` shows.
struct ArticleInput: Loggable {
    var name: String
    var loggingDescription: String { name }
}

/// The action whose `prepareActivity` the `ActivityBuilder` example writes.
final class ShowArticleAction: Action {
    typealias InputType = ArticleInput
    static func perform(
        context: ActionContext<ArticleInput>,
        presenter: NoPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

/// What a ``BuyAction`` pays.
struct PaymentInput: Loggable {
    var cardNumber: Redacted<String>
    var items: Int
    var loggingDescription: String { "\(cardNumber.loggingDescription), \(items) items" }
}

/// The action whose `analyticsAttributes` the `AnalyticsValue` example writes.
final class BuyAction: Action {
    typealias InputType = PaymentInput
    static func perform(
        context: ActionContext<PaymentInput>,
        presenter: NoPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

/// The feature whose constraints the `FeatureConstraintsBuilder` example declares.
final class ProFeature: ConditionalFeature {
    static func prepare(actions: FeatureActionsBuilder) {}
}

/// The feature whose `prepare(actions:)` the `FeatureDefinition` example writes.
final class WishlistFeature: Feature {
    static let addItem = action(AddItemAction.self)
    static let checkout = action(CheckoutAction.self)
}

/// What the `LogBackend` example writes to besides standard output.
struct AppLogFile: LogBackend {
    func write(_ event: LogEvent) {}
}

/// Where the examples keep the timeline they read.
let timeline = Timeline(maxEntries: 100)

/// Where a debug report is read from.
let reportURL = directory.appendingPathComponent("debug-report.json")

/// The catalogue the `URLMapped` example routes `shop://browse/…` to.
final class BrowseAction: Action {
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

// MARK: - Values the examples use

/// The product screen of the campaign and item examples.
let screen = CampaignManager(
    reporter: reporter,
    source: source,
    directory: supportDirectory.appendingPathComponent("campaigns")
).makeScreen(named: "Product")

/// Web views of the app.
let surface = AppWebView()
let webView = AppWebView()

/// What the app does with a clicked content action.
func openProduct(_ id: String) {}
func openArticle(_ id: String) {}
func open(_ url: URL) {}

let socks = try! Product(id: "sku-2", name: "Socks", price: 5, currency: "EUR")
let trackerDirectory = supportDirectory.appendingPathComponent("tracker")
let campaignsDirectory = supportDirectory.appendingPathComponent("campaigns")
let donor = RecordingIntentDonor()
let activityRouter = ActivityRouter(activityTypePrefix: "com.example.shop")

/// What the system hands the app to continue an activity or handle an intent.
let activityType = "com.example.shop.view-product"
let userInfo = ["sku": "sku-1"]
let intentIdentifier = "reorder"
let intentParameters = ["value": "o-17"]

let mySDKAdapter = MyAnalytics()
let analytics = AnalyticsPlugin(provider: mySDKAdapter)
let debugReport = system.debugReport
let uploader = EventUploader(
    store: store,
    transport: try! HTTPEventTransport(endpoint: collectorURL, apiKey: apiKey),
    scheduler: SystemScheduler.shared
)
let applicationSupport = supportDirectory
let event = ReportEvent(type: "executed", timestamp: Date(), sessionID: "s1", anonymousID: "a1")
let scheduler = TestScheduler()

/// The feature of the `ActionBinding` example's action with no input and no presenter.
final class AccountFeature: Feature {
    static let refresh = action(RefreshAction.self)
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(refresh) }
}
