import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("Action stacks")
struct ActionStacksTests {
    /// A harness with an action stacks plugin on its virtual clock.
    private struct Setup {
        let harness = ActionTestHarness()
        let stacks: ActionStacksPlugin

        init(maxEntriesPerStack: Int = 100, maxClosedStacks: Int = 50, maxOpenStacks: Int = 100) {
            stacks = ActionStacksPlugin(
                maxEntriesPerStack: maxEntriesPerStack,
                maxClosedStacks: maxClosedStacks,
                maxOpenStacks: maxOpenStacks
            )
            harness.dispatcher.add(plugin: stacks)
        }

        func session(_ name: String) -> ActionSession {
            ActionSession(named: name, dispatcher: harness.dispatcher)
        }

        func step(_ label: String, _ ending: Ending = .success, in session: ActionSession? = nil) async {
            _ = await (session ?? harness.session).perform(
                EditorFeature.step,
                input: Step(label: label, ending: ending)
            )
        }
    }

    @Test("the same feature in two sessions gives two stacks, each with its own session's actions in order")
    func perSession() async throws {
        let setup = Setup()
        let other = setup.session("other")
        await setup.step("a1")
        await setup.step("b1", in: other)
        await setup.step("a2")

        let open = setup.stacks.snapshot().open
        #expect(open.count == 2)
        let mine = try #require(setup.stacks.openStack(session: "test", feature: EditorFeature.identifier))
        let theirs = try #require(setup.stacks.openStack(session: "other", feature: EditorFeature.identifier))
        #expect(mine.entries.map(\.inputDescription) == ["a1", "a2"])
        #expect(theirs.entries.map(\.inputDescription) == ["b1"])
        #expect(mine.id != theirs.id)
        #expect(mine.entries.allSatisfy { $0.actionName == "Step" && $0.outcome == .success })
        #expect(mine.featureName == "Editor")
        #expect(setup.stacks.snapshot().stacks(inSession: "other").map(\.id) == [theirs.id])
    }

    @Test(
        "a feature-terminating outcome closes the stack; the next action opens a new one",
        arguments: [Ending.successTerminating, .failureTerminating("discarded")]
    )
    func terminationCloses(ending: Ending) async throws {
        let setup = Setup()
        await setup.step("a1")
        setup.harness.scheduler.advance(by: .seconds(3))
        await setup.step("a2", ending)

        #expect(setup.stacks.openStack(session: "test", feature: EditorFeature.identifier) == nil)
        let closed = try #require(setup.stacks.snapshot().closed.first)
        #expect(closed.entries.map(\.inputDescription) == ["a1", "a2"])
        #expect(closed.closeReason == .featureTerminated)
        #expect(closed.closedAt == closed.openedAt.addingTimeInterval(3))
        #expect(!closed.isOpen)

        await setup.step("a3")
        let reopened = try #require(setup.stacks.openStack(session: "test", feature: EditorFeature.identifier))
        #expect(reopened.id != closed.id)
        #expect(reopened.entries.map(\.inputDescription) == ["a3"])
    }

    @Test("termination in one session leaves the same feature's stack in another session open")
    func terminationIsPerSession() async {
        let setup = Setup()
        let other = setup.session("other")
        await setup.step("a1")
        await setup.step("b1", in: other)
        await setup.step("a2", .successTerminating)

        let snapshot = setup.stacks.snapshot()
        #expect(snapshot.closed.map(\.sessionName) == ["test"])
        #expect(snapshot.open.map(\.sessionName) == ["other"])
    }

    @Test("a full stack evicts its oldest entries and counts them")
    func entryCap() async throws {
        let setup = Setup(maxEntriesPerStack: 3)
        for index in 1...5 { await setup.step("s\(index)") }
        let stack = try #require(setup.stacks.openStack(session: "test", feature: EditorFeature.identifier))
        #expect(stack.entries.map(\.inputDescription) == ["s3", "s4", "s5"])
        #expect(stack.evictedEntryCount == 2)
        #expect(setup.stacks.textDump().contains("2 older actions evicted"))
    }

    @Test("closed stacks are kept in a bounded ring, oldest evicted first")
    func closedCap() async {
        let setup = Setup(maxClosedStacks: 2)
        for index in 1...3 { await setup.step("end\(index)", .successTerminating) }
        let closed = setup.stacks.snapshot().closed
        #expect(closed.map { $0.entries.map(\.inputDescription) } == [["end2"], ["end3"]])
    }

    @Test("too many open stacks closes the one idle longest as evicted")
    func openCap() async {
        let setup = Setup(maxOpenStacks: 2)
        await setup.step("one", in: setup.session("s1"))
        await setup.step("two", in: setup.session("s2"))
        await setup.step("one again", in: setup.session("s1"))
        await setup.step("three", in: setup.session("s3"))

        let snapshot = setup.stacks.snapshot()
        #expect(snapshot.open.map(\.sessionName).sorted() == ["s1", "s3"])
        #expect(snapshot.closed.map(\.sessionName) == ["s2"])
        #expect(snapshot.closed.first?.closeReason == .evicted)
    }

    @Test("a stack opened while another feature's stack is open in the same session records it as parent")
    func parent() async throws {
        let setup = Setup()
        let other = setup.session("other")
        await setup.step("edit")
        _ = await setup.harness.session.perform(LibraryFeature.step, input: Step(label: "browse"))
        _ = await other.perform(LibraryFeature.step, input: Step(label: "browse elsewhere"))

        let editor = try #require(setup.stacks.openStack(session: "test", feature: EditorFeature.identifier))
        let library = try #require(setup.stacks.openStack(session: "test", feature: LibraryFeature.identifier))
        let elsewhere = try #require(setup.stacks.openStack(session: "other", feature: LibraryFeature.identifier))
        #expect(editor.parentID == nil)
        #expect(library.parentID == editor.id)
        #expect(elsewhere.parentID == nil, "a stack in another session is not a parent")
        #expect(setup.stacks.textDump().contains("parent #\(editor.id)"))
    }

    @Test("hidden actions are not recorded, but their feature termination still closes the stack")
    func hiddenActions() async throws {
        let setup = Setup()
        await setup.step("visible")
        _ = await setup.harness.session.perform(EditorFeature.hiddenStep, input: Step(label: "hidden"))
        #expect(setup.stacks.openStack(session: "test", feature: EditorFeature.identifier)?.entries.count == 1)

        let ending = Step(label: "hidden end", ending: .successTerminating)
        _ = await setup.harness.session.perform(EditorFeature.hiddenStep, input: ending)
        let closed = try #require(setup.stacks.snapshot().closed.first)
        #expect(closed.entries.map(\.inputDescription) == ["visible"])
    }

    @Test("failures are recorded with their message")
    func failureOutcome() async throws {
        let setup = Setup()
        await setup.step("save", .failure("disk full"))
        let stack = try #require(setup.stacks.openStack(session: "test", feature: EditorFeature.identifier))
        #expect(stack.entries.first?.outcome == .failure(message: "FixtureError: disk full"))
    }

    @Test("the debug report has an action stacks section after the timeline, in text and JSON")
    func debugReport() async throws {
        let setup = Setup()
        await setup.step("first", .successTerminating)
        await setup.step("second")
        let report = DebugReport(
            reportables: [setup.stacks, setup.harness.timeline],
            dispatcher: setup.harness.dispatcher
        )
        #expect(report.sections.map(\.debugReportSectionName) == ["timeline", "actionStacks"])

        let text = report.text()
        #expect(text.contains("== actionStacks"))
        #expect(text.contains("Open stacks (1)"))
        #expect(text.contains("Closed stacks (1)"))
        #expect(text.contains("Step (second) → success"))

        let json = try #require(JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        #expect(json["sections"] as? [String] == ["timeline", "actionStacks"])
        let section = try #require(json["actionStacks"] as? [String: Any])
        #expect((section["open"] as? [Any])?.count == 1)

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(ActionStacksSnapshot.self, from: setup.stacks.jsonDump())
        #expect(decoded == setup.stacks.snapshot())
    }

    @Test("clear() removes every stack")
    func clear() async {
        let setup = Setup()
        await setup.step("a", .successTerminating)
        await setup.step("b")
        setup.stacks.clear()
        #expect(setup.stacks.snapshot() == ActionStacksSnapshot(open: [], closed: []))
    }
}
