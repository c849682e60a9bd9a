import Actuate
import ActuateTesting
import Foundation
import NotesKit
import Testing

@Suite("Notes links")
struct NotesRouteTests {
    @Test func opensANoteFromItsLink() async throws {
        let store = InMemoryNotesStore(), notes = NotesRecorder()
        let system = try ActuateSystem.notes(store, presenter: notes)
        _ = store.create(text: "Buy milk")
        #expect("\(await system.open(url: URL(string: "notes://note/1")!))" == "performed(success)")
        #expect(notes.calls.recorded == [.show(Note(id: 1, text: "Buy milk"))])
    }
}

extension ActuateSystem {
    /// A system of its own (its own dispatcher, virtual time) whose notes actions read `store`, with `presenter` for
    /// routed actions.
    static func notes(_ store: InMemoryNotesStore, presenter: NotesRecorder) throws -> ActuateSystem {
        var configuration = ActuateConfiguration(routes: URLRouterConfiguration(appSchemes: ["notes"]))
        configuration.dependencies[NotesStoreKey.self] = store
        let system = try setup(group: AppFeatures.self, dispatching: .isolated(scheduler: TestScheduler()), configuration: configuration)
        system.router.setPresenter(for: NotesFeature.open) { presenter }
        return system
    }
}
