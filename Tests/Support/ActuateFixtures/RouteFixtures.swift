import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore

// MARK: - Actions

/// An action that takes no input and completes at once; its conformers differ only in name, so tests can
/// tell routes apart.
protocol RoutedNoInputAction: Action where InputType == NoInput, PresenterType == NoPresenter {}

extension RoutedNoInputAction {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class NewProductAction: RoutedNoInputAction {}
final class BrowseFilesAction: RoutedNoInputAction {}
final class EditDocAction: RoutedNoInputAction {}
final class HelpTopicAction: RoutedNoInputAction {}
final class AppOnlyAction: RoutedNoInputAction {}
final class WebOnlyAction: RoutedNoInputAction {}
final class AmbiguousLiteralAction: RoutedNoInputAction {}
final class AmbiguousPartialAction: RoutedNoInputAction {}
final class AmbiguousParameterAction: RoutedNoInputAction {}
final class AmbiguousStarAction: RoutedNoInputAction {}
final class AmbiguousDoubleStarAction: RoutedNoInputAction {}
final class TieFirstAction: RoutedNoInputAction {}
final class TieSecondAction: RoutedNoInputAction {}
final class ViewMeAction: RoutedNoInputAction {}

final class ViewProductAction: Action {
    typealias InputType = Int
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<Int>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// An action that takes a string and completes at once; its conformers differ only in name.
protocol RoutedStringAction: Action where InputType == String, PresenterType == NoPresenter {}

extension RoutedStringAction {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<String>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class ViewUserAction: RoutedStringAction {}
final class ViewItemAction: RoutedStringAction {}

final class OpenTicketAction: Action {
    typealias InputType = UUID
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<UUID>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// A search input read from the query: `q`, and an optional `page`.
struct SearchQuery: Loggable, RouteParametersCodable, Equatable {
    var text: String
    var page: Int?

    init(text: String, page: Int? = nil) {
        self.text = text
        self.page = page
    }

    init(routeParameters: RouteParameters) throws {
        text = try routeParameters.value("q")
        page = routeParameters["page"] == nil ? nil : try routeParameters.value("page", as: Int.self)
    }

    var routeParameterValues: RouteParameterValues {
        .named(["q": text, "page": page.map(String.init)].compactMapValues { $0 })
    }

    var loggingDescription: String { "q=\(text) page=\(page.map(String.init) ?? "-")" }
}

final class SearchAction: Action {
    typealias InputType = SearchQuery
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<SearchQuery>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

/// Completes asynchronously, from another queue than its own.
final class SlowLoadAction: Action {
    typealias InputType = Int
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<Int>, presenter: Void, completion: Completion) -> Completion.Status {
        let status = completion.willCompleteAsync()
        TestQueues.other.async { status.completed(.success) }
        return status
    }
}

struct FetchFailed: Error, CustomStringConvertible {
    var id: Int
    var description: String { "fetch \(id) failed" }
}

/// An async action that succeeds for even ids and throws for odd ones.
final class FetchAction: AsyncAction {
    typealias InputType = Int
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<Int>, presenter: Void) async throws -> ActionPerformOutcome {
        await Task.yield()
        guard context.input.isMultiple(of: 2) else { throw FetchFailed(id: context.input) }
        return .success
    }
}

/// The presenter of ``WaitAction``: says when the body started, and holds it until its task is cancelled.
final class RouteProbe: Sendable {
    private struct State {
        var started = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    let hold: AsyncStream<Void>
    private let holdContinuation: AsyncStream<Void>.Continuation

    init() {
        (hold, holdContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    func markStarted() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.started = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func waitUntilStarted() async {
        await withCheckedContinuation { continuation in
            let startedAlready = state.withLock { state -> Bool in
                if !state.started { state.waiters.append(continuation) }
                return state.started
            }
            if startedAlready { continuation.resume() }
        }
    }
}

/// Runs until the task that awaits it is cancelled.
final class WaitAction: AsyncAction {
    typealias PresenterType = RouteProbe
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: RouteProbe) async throws -> ActionPerformOutcome {
        presenter.markStarted()
        for await _ in presenter.hold {}
        try Task.checkCancellation()
        return .success
    }
}

final class BetaAction: Action {
    typealias InputType = Int
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<Int>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

// MARK: - Features

final class ShopFeature: Feature, URLMapped {
    static let viewProduct = action(ViewProductAction.self)
    static let newProduct = action(NewProductAction.self)
    static let viewUser = action(ViewUserAction.self)
    static let viewMe = action(ViewMeAction.self)
    static let viewItem = action(ViewItemAction.self)
    static let openTicket = action(OpenTicketAction.self)
    static let browseFiles = action(BrowseFilesAction.self)
    static let editDoc = action(EditDocAction.self)
    static let help = action(HelpTopicAction.self)
    static let search = action(SearchAction.self)
    static let appOnly = action(AppOnlyAction.self)
    static let webOnly = action(WebOnlyAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(viewProduct)
        actions.declare(newProduct)
        actions.declare(viewUser)
        actions.declare(viewMe)
        actions.declare(viewItem)
        actions.declare(openTicket)
        actions.declare(browseFiles)
        actions.declare(editDoc)
        actions.declare(help)
        actions.declare(search)
        actions.declare(appOnly)
        actions.declare(webOnly)
    }

    static func urlMappings(routes: URLMappingsBuilder<ShopFeature>) {
        routes.send("product/$(id)", to: viewProduct)
        routes.send("product/new", to: newProduct)
        routes.send("user/$(name)/view", to: viewUser)
        routes.send("user/me/view", to: viewMe)
        routes.send("items/item-$(sku)", to: viewItem)
        routes.send("ticket/$(id)", to: openTicket)
        routes.send("files/**", to: browseFiles)
        routes.send("docs/**/edit", to: editDoc)
        routes.send("help/*", to: help)
        routes.send("search", to: search)
        routes.send("app-only", to: appOnly, in: .appScheme("shop"))
        routes.send("web-only", to: webOnly, in: .universal("shop.example.com"))
    }
}

/// Routes declared from least to most specific, so that registration order cannot explain which one wins.
final class AmbiguityFeature: Feature, URLMapped {
    static let doubleStar = action(AmbiguousDoubleStarAction.self)
    static let star = action(AmbiguousStarAction.self)
    static let parameter = action(AmbiguousParameterAction.self)
    static let partial = action(AmbiguousPartialAction.self)
    static let literal = action(AmbiguousLiteralAction.self)
    static let tieFirst = action(TieFirstAction.self)
    static let tieSecond = action(TieSecondAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(doubleStar)
        actions.declare(star)
        actions.declare(parameter)
        actions.declare(partial)
        actions.declare(literal)
        actions.declare(tieFirst)
        actions.declare(tieSecond)
    }

    static func urlMappings(routes: URLMappingsBuilder<AmbiguityFeature>) {
        routes.send("a/**", to: doubleStar)
        routes.send("a/*", to: star)
        routes.send("a/$(x)", to: parameter)
        routes.send("a/x-$(y)", to: partial)
        routes.send("a/x-literal", to: literal)
        routes.send("tie/$(a)", to: tieFirst)
        routes.send("tie/$(b)", to: tieSecond)
    }
}

final class AsyncRoutesFeature: Feature, URLMapped {
    static let slowLoad = action(SlowLoadAction.self)
    static let fetch = action(FetchAction.self)
    static let wait = action(WaitAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(slowLoad)
        actions.declare(fetch)
        actions.declare(wait)
    }

    static func urlMappings(routes: URLMappingsBuilder<AsyncRoutesFeature>) {
        routes.send("slow/$(id)", to: slowLoad)
        routes.send("fetch/$(id)", to: fetch)
        routes.send("wait", to: wait)
    }
}

/// A conditional feature with a route, available while its user toggle is on (off by default).
final class BetaRoutesFeature: ConditionalFeature, URLMapped {
    static let beta = action(BetaAction.self)

    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.userToggled(defaultValue: false)
    }

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(beta)
    }

    static func urlMappings(routes: URLMappingsBuilder<BetaRoutesFeature>) {
        routes.send("beta/$(id)", to: beta)
    }
}

final class ShopRoutesGroup: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [
        ShopFeature.self, AmbiguityFeature.self, AsyncRoutesFeature.self, BetaRoutesFeature.self,
    ]
}

/// One good route and three bad ones.
final class BrokenRoutesFeature: Feature, URLMapped {
    static let viewProduct = action(ViewProductAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(viewProduct)
    }

    static func urlMappings(routes: URLMappingsBuilder<BrokenRoutesFeature>) {
        routes.send("ok/$(id)", to: viewProduct)
        routes.send("bad/$(id", to: viewProduct)
        routes.send("x/**/y/**", to: viewProduct)
        routes.send("scoped/$(id)", to: viewProduct, in: .appScheme("nope"))
    }
}

// MARK: - Testbed

/// A router over ``ShopRoutesGroup`` on an isolated dispatcher, with a recorder of what ran.
struct RouteTestbed {
    static let configuration = URLRouterConfiguration(
        appSchemes: ["shop", "ShopDev"],
        universalLinkHosts: ["shop.example.com", "www.example.com"]
    )

    let recorder = RecordingPlugin()
    let diagnostics = RecordingDiagnostics()
    let session: ActionSession
    let router: URLRouter
    let links: LinkCreator

    init(availability: FeatureAvailability? = nil) throws {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: diagnostics)
        dispatcher.add(plugin: recorder)
        session = ActionSession(named: "routes", dispatcher: dispatcher)
        router = URLRouter(configuration: Self.configuration, defaultSession: session, availability: availability)
        try router.register(ShopRoutesGroup.self)
        links = LinkCreator(router: router)
    }

    /// The requests that completed, in order.
    var completed: [ActionRequestSummary] {
        recorder.events.compactMap { if case .completed(let request, _, _) = $0 { request } else { nil } }
    }

    /// Opens `text` as a URL.
    func open(_ text: String) async throws -> URLRouteResult {
        let url = try #require(URL(string: text))
        return await router.open(url: url)
    }

    /// The name of the action `text` resolves to, if any.
    func resolvedAction(_ text: String) -> String? {
        URL(string: text).flatMap { router.resolve($0)?.actionName }
    }
}
