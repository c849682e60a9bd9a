import Actuate
import ActuateTesting
import Foundation
import NotesKit
import Testing

@Suite("Notes links")
struct NotesRouteTests {
    @Test func opensANoteFromItsLink() async throws {
        let (system, notes) = try ActuateSystem.notes(holding: ["Buy milk"])
        #expect("\(await system.open(url: URL(string: "notes://note/1")!))" == "performed: success")
        #expect(notes.calls.recorded == [.show(Note(id: 1, text: "Buy milk"))])
    }
}

extension ActuateSystem {
    /// A system of its own (its own dispatcher, virtual time) whose store holds `texts`, and the recorder routed
    /// actions show on.
    static func notes(holding texts: [String]) throws -> (ActuateSystem, NotesRecorder) {
        let store = InMemoryNotesStore()
        for text in texts { _ = store.create(text: text) }
        let presenter = NotesRecorder()
        var configuration = ActuateConfiguration(routes: URLRouterConfiguration(appSchemes: ["notes"]))
        configuration.dependencies[NotesStoreKey.self] = store
        let system = try setup(
            group: AppFeatures.self,
            dispatching: .isolated(scheduler: TestScheduler()),
            configuration: configuration
        )
        system.router.setPresenter(for: NotesFeature.open) { presenter }
        return (system, presenter)
    }
}
