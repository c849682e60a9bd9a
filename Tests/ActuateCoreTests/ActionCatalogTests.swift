import Dispatch
import Foundation
import Testing

@testable import ActuateCore

// MARK: - Fixtures: a small app whose catalog the tests read

private protocol CatalogPresenter: Sendable {
    func show(_ text: String)
}

private enum CatalogFixtureQueues {
    static let library = DispatchQueue(label: "catalog-tests.library")
}

private final class OpenBookAction: Action {
    typealias InputType = String
    typealias PresenterType = any CatalogPresenter

    static var description: String { "Opens a book | with a pipe." }
    static var queue: DispatchQueue { CatalogFixtureQueues.library }
    static var analyticsID: String? { "book_opened" }
    static var activityEligibility: Set<ActivityEligibility> { [.search, .handoff] }

    static func perform(
        context: ActionContext<String>,
        presenter: any CatalogPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

private final class RefreshShelfAction: Action {
    static var hideFromTimeline: Bool { true }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

private final class ReadAloudAction: Action {
    static func perform(
        context: ActionContext<NoInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(.success)
    }
}

private final class LibraryFeatures: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [ShelfFeature.self, AudioBookFeature.self] }
}

private final class ShelfFeature: Feature, URLMapped {
    static var description: String { "Books on the shelf." }
    static let openBook = action(OpenBookAction.self)
    static let refresh = action(RefreshShelfAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(openBook)
        actions.declare(refresh)
    }

    static func urlMappings(routes: URLMappingsBuilder<ShelfFeature>) {
        routes.send("book/$(title)", to: openBook)
        routes.send("shelf", to: refresh, in: .appScheme("library"))
    }
}

private final class AudioBookFeature: ConditionalFeature {
    static let readAloud = action(ReadAloudAction.self)

    static func constraints(requirements: FeatureConstraintsBuilder) {
        requirements.platform(.linux, .iOS(18))
        requirements.userToggled(defaultValue: false)
        requirements.purchase("com.example.audio")
    }

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(readAloud)
    }
}

// MARK: - Tests

@Suite("Action catalog")
struct ActionCatalogTests {
    private let routes = URLRouterConfiguration(appSchemes: ["library"], universalLinkHosts: ["books.example.com"])

    @Test("lists the group and its features in order, with paths, kinds and descriptions")
    func listsFeatures() throws {
        let catalog = try ActionCatalog(group: LibraryFeatures.self, routes: routes)
        #expect(catalog.formatVersion == 1)
        #expect(catalog.groupName == "Library Features")
        #expect(
            catalog.features.map(\.path) == [
                "LibraryFeatures", "LibraryFeatures/ShelfFeature", "LibraryFeatures/AudioBookFeature",
            ]
        )
        #expect(catalog.features.map(\.kind) == [.group, .feature, .feature])
        #expect(catalog.features[1].parentPath == "LibraryFeatures")
        #expect(catalog.features[1].description == "Books on the shelf.")
        #expect(catalog.allActions.map(\.name) == ["Open Book", "Refresh Shelf", "Read Aloud"])
    }

    @Test("each action carries its input, presenter, queue, analytics ID, activities and publication")
    func describesActions() throws {
        let catalog = try ActionCatalog(group: LibraryFeatures.self, routes: routes)
        let openBook = try #require(catalog.allActions.first { $0.name == "Open Book" })
        #expect(openBook.typeName == "OpenBookAction")
        #expect(openBook.inputType == "String")
        #expect(openBook.presenterType == "CatalogPresenter")
        #expect(openBook.queueLabel == "catalog-tests.library")
        #expect(openBook.analyticsID == "book_opened")
        #expect(openBook.activityEligibility == ["handoff", "search"])
        #expect(openBook.isPublished)
        let refresh = try #require(catalog.allActions.first { $0.name == "Refresh Shelf" })
        #expect(refresh.inputType == "NoInput")
        #expect(refresh.presenterType == "NoPresenter")
        #expect(refresh.queueLabel == DispatchQueue.main.label)
        #expect(refresh.analyticsID == nil)
        #expect(refresh.hideFromTimeline)
        #expect(!refresh.isPublished)
    }

    @Test("routes are listed per action with their scopes and the links they answer")
    func describesRoutes() throws {
        let catalog = try ActionCatalog(group: LibraryFeatures.self, routes: routes)
        let openBook = try #require(catalog.allActions.first { $0.name == "Open Book" })
        #expect(openBook.routes.map(\.pattern) == ["book/$(title)"])
        #expect(openBook.routes.first?.links == ["library://book/$(title)", "https://books.example.com/book/$(title)"])
        let refresh = try #require(catalog.allActions.first { $0.name == "Refresh Shelf" })
        #expect(refresh.routes.first?.scopes == ["app scheme 'library'"])
        #expect(refresh.routes.first?.links == ["library://shelf"])
        #expect(catalog.allActions.first { $0.name == "Read Aloud" }?.routes == [])
    }

    @Test("a conditional feature lists its constraints, platforms first")
    func describesConstraints() throws {
        let catalog = try ActionCatalog(group: LibraryFeatures.self, routes: routes)
        let audio = try #require(catalog.features.first { $0.name == "Audio Book" })
        #expect(audio.isConditional)
        #expect(audio.constraints.map(\.kind) == ["platform", "userToggle", "purchase"])
        #expect(audio.constraints[0].description == "platform: Linux or iOS 18.0+")
        #expect(audio.constraints[2].description == "purchase: com.example.audio")
        #expect(catalog.features.first { $0.name == "Shelf" }?.isConditional == false)
    }

    @Test("Markdown has a section per feature and a table row per action, with pipes escaped")
    func rendersMarkdown() throws {
        let markdown = try ActionCatalog(group: LibraryFeatures.self, routes: routes).markdown()
        #expect(markdown.hasPrefix("# Actions of Library Features\n\n3 features, 3 actions (1 published).\n"))
        #expect(markdown.contains("## Audio Book (conditional)"))
        #expect(markdown.contains("- user toggle (feature path) (default false)"))
        let row = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| **Open Book**") })
        #expect(
            row
                == "| **Open Book** (published) | Opens a book \\| with a pipe. | `String` | `CatalogPresenter` "
                + "| `catalog-tests.library` | `book_opened` | handoff, search "
                + "| `library://book/$(title)`<br>`https://books.example.com/book/$(title)` |"
        )
    }

    @Test("JSON round-trips through decode, and a debug report's catalog section decodes too")
    func roundTripsJSON() throws {
        let catalog = try ActionCatalog(group: LibraryFeatures.self, routes: routes)
        #expect(try ActionCatalog.decode(from: catalog.jsonData()) == catalog)
        let report = DebugReport(reportables: [catalog])
        #expect(try ActionCatalog.decode(from: report.jsonData()) == catalog)
        #expect(report.text().contains("| **Read Aloud** |"))
    }

    @Test(
        "bad catalogs fail with a clear error",
        arguments: [
            ("not json", ActionCatalogError.notJSON(reason: "")),
            (#"[1, 2]"#, .notACatalog),
            (#"{"timeline": {}}"#, .notACatalog),
            (#"{"groupName": "A", "features": []}"#, .missingFormatVersion),
            (#"{"formatVersion": 7, "groupName": "A", "features": []}"#, .newerFormat(found: 7, supported: 1)),
            (#"{"formatVersion": 1, "features": []}"#, .malformed(reason: "")),
        ]
    )
    func rejectsBadCatalogs(json: String, expected: ActionCatalogError) {
        do {
            let catalog = try ActionCatalog.decode(from: Data(json.utf8))
            Issue.record("decoded \(catalog) from \(json)")
        } catch {
            switch (error, expected) {
            case (.notJSON, .notJSON), (.malformed, .malformed): break
            default: #expect(error == expected)
            }
        }
    }

    @Test("error messages name the problem and both versions")
    func errorMessages() {
        #expect(ActionCatalogError.missingFormatVersion.description.contains("written before format 1"))
        let newer = ActionCatalogError.newerFormat(found: 3, supported: 1).description
        #expect(newer.contains("format 3") && newer.contains("format 1"))
        let malformed = ActionCatalogError.malformed(reason: "$ has no \"groupName\"").description
        #expect(malformed.contains("groupName"))
    }
}
