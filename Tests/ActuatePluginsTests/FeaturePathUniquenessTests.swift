import ActuateTesting
import Dispatch
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// Two `SearchFeature`s in different namespaces of one group would share availability, stack and focus keys:
// registering the group fails with both full type names instead.

final class FindAction: Action {
    static var queue: DispatchQueue { .global() }

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

enum Books {
    final class SearchFeature: Feature {
        static let find = action(FindAction.self)
        static func prepare(actions: FeatureActionsBuilder) { actions.declare(find) }
    }

    final class BooksShelf: FeatureGroup {
        static let subfeatures: [any FeatureDefinition.Type] = [Books.SearchFeature.self]
    }
}

enum Music {
    final class SearchFeature: Feature {
        static let find = action(FindAction.self)
        static func prepare(actions: FeatureActionsBuilder) { actions.declare(find) }
    }

    final class MusicShelf: FeatureGroup {
        static let subfeatures: [any FeatureDefinition.Type] = [Music.SearchFeature.self]
    }
}

/// Both searches side by side: their paths clash.
final class ClashingMediaApp: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [Books.SearchFeature.self, Music.SearchFeature.self]
}

/// The clash one level down, under a group of its own.
final class NestedClashApp: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [ClashingMediaApp.self]
}

/// Each search under a group of its own: different paths, no clash; the same type listed twice is no clash.
final class ShelvedMediaApp: FeatureGroup {
    static let subfeatures: [any FeatureDefinition.Type] = [
        Books.BooksShelf.self, Music.MusicShelf.self, Books.BooksShelf.self,
    ]
}

@Suite("Feature path uniqueness")
struct FeaturePathUniquenessTests {
    private let clash = FeaturePathClash(
        path: FeaturePath(["ClashingMediaApp", "SearchFeature"]),
        firstTypeName: "ActuatePluginsTests.Books.SearchFeature",
        secondTypeName: "ActuatePluginsTests.Music.SearchFeature"
    )

    @Test("setting up a group where two types share a path fails, naming the path and both full type names")
    func setupReportsTheClash() throws {
        #expect(throws: ActuateSetupError.featurePathClash(clash)) {
            try ActuateSystem.setup(
                group: ClashingMediaApp.self,
                dispatching: .isolated(diagnostics: RecordingDiagnostics())
            )
        }
        #expect(
            clash.description
                == "Two features of the group have the path ClashingMediaApp/SearchFeature: "
                + "ActuatePluginsTests.Books.SearchFeature and ActuatePluginsTests.Music.SearchFeature. Paths are made of "
                + "unqualified type names and must be unique in a group, so rename one of the two types."
        )
    }

    @Test("a clash deeper in the group is found, and availability registration reports it too")
    func nestedClash() {
        #expect(
            throws: FeaturePathClash(
                path: FeaturePath(["NestedClashApp", "ClashingMediaApp", "SearchFeature"]),
                firstTypeName: "ActuatePluginsTests.Books.SearchFeature",
                secondTypeName: "ActuatePluginsTests.Music.SearchFeature"
            )
        ) {
            try FeatureAvailability().register(NestedClashApp.self)
        }
    }

    @Test("types with the same name under different groups get different paths, and keys of their own")
    func distinctPathsAreFine() throws {
        let system = try ActuateSystem.setup(
            group: ShelvedMediaApp.self,
            dispatching: .isolated(diagnostics: RecordingDiagnostics())
        )
        let searches = system.features.filter { $0.name == "Search" }
        #expect(
            searches.map(\.path.description) == [
                "ShelvedMediaApp/BooksShelf/SearchFeature", "ShelvedMediaApp/MusicShelf/SearchFeature",
                "ShelvedMediaApp/BooksShelf/SearchFeature",
            ]
        )
        #expect(
            searches.map(\.typeName) == [
                "ActuatePluginsTests.Books.SearchFeature", "ActuatePluginsTests.Music.SearchFeature",
                "ActuatePluginsTests.Books.SearchFeature",
            ]
        )
        #expect(
            system.availability.report(for: Books.SearchFeature.self).path.description.hasPrefix(
                "ShelvedMediaApp/Books"
            )
        )
        #expect(
            system.availability.report(for: Music.SearchFeature.self).path.description.hasPrefix(
                "ShelvedMediaApp/Music"
            )
        )
    }
}
