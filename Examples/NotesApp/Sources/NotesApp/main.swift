import Actuate
import Foundation
import NotesKit

/// Prints what the actions show.
struct ConsoleNotes: NotesPresenter {
    func show(_ note: Note) { print("showing note \(note.id): \(note.text)") }
    func removed(id: Int) { print("removed note \(id)") }
    func synced(count: Int) { print("synced \(count) notes") }
}

// The live dependencies, set once on the system's configuration: no global, and a test harness sets its own.
let store = InMemoryNotesStore()
var configuration = ActuateConfiguration(
    plugins: [AnalyticsPlugin(provider: ConsoleAnalyticsProvider())],  // analytics printed to the console
    routes: URLRouterConfiguration(appSchemes: ["notes"])
)
configuration.dependencies[NotesStoreKey.self] = store
configuration.dependencies[NotesServerKey.self] = SimulatedNotesServer(scheduler: SystemScheduler.shared)
let system = try ActuateSystem.setup(group: AppFeatures.self, configuration: configuration)
system.router.setPresenter(for: NotesFeature.open) { ConsoleNotes() }  // without it, a link has no presenter

let notes = ConsoleNotes()
let session = system.mainSession
let created = await session.perform(NotesFeature.create, input: "Buy milk", presenter: notes)
print("awaited outcome:", created.isSuccess ? "success" : "failure")
_ = await session.perform(NotesFeature.create, input: "Call Ada", presenter: notes)
print("open notes://note/1:", await system.open(url: URL(string: "notes://note/1")!))
_ = await session.perform(NotesFeature.delete, input: 2, presenter: notes)
let synced = await session.perform(NotesFeature.sync, presenter: notes)
print("sync:", synced.isSuccess ? "success" : "failure")
print(system.timeline.textDump(), terminator: "")
guard created.isSuccess, synced.isSuccess else { fatalError("the notes app's actions did not succeed") }
