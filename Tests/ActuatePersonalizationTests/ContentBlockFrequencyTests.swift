import ActuatePersonalizationTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

@Suite("ContentBlockFrequency")
struct ContentBlockFrequencyTests {
    /// Shows the placeholder once and says whether `blockId` was shown.
    private func shows(_ manager: ContentBlockManager, _ blockID: String = "hero") async -> Bool {
        let placeholder = await manager.loadedPlaceholder(surface: InstantHTMLSurface()).placeholder
        return placeholder.contentBlock?.id == blockID
    }

    /// The pattern of shows for one rule: twice in the first visit, once in a second visit, once after a
    /// relaunch.
    private func pattern(_ frequency: ContentBlockFrequency) async -> [Bool] {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", frequency: frequency)])
        var manager = fixture.makeManager(source)
        var seen = [await shows(manager), await shows(manager)]
        fixture.reporter.startNewSession()
        seen.append(await shows(manager))
        manager = fixture.relaunch(source)
        seen.append(await shows(manager))
        return seen
    }

    @Test("always: shown every time")
    func always() async {
        #expect(await pattern(.always) == [true, true, true, true])
    }

    @Test("onlyOnce: shown once ever, not again in a new visit or after a relaunch")
    func onlyOnce() async {
        #expect(await pattern(.onlyOnce) == [true, false, false, false])
    }

    @Test("oncePerVisit: shown once in each visit, and again in the visit a relaunch starts")
    func oncePerVisit() async {
        #expect(await pattern(.oncePerVisit) == [true, false, true, true])
    }

    @Test("A visit that ends by inactivity lets an oncePerVisit block show again")
    func oncePerVisitAfterTimeout() async {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero", frequency: .oncePerVisit)]))
        #expect(await shows(manager))
        fixture.scheduler.advance(by: .seconds(60))
        #expect(!(await shows(manager)))
        fixture.scheduler.advance(by: .seconds(2 * 3600))
        #expect(await shows(manager))
    }

    @Test(
        "untilVisitorInteracts: shown until the user clicks it or closes it, across visits and relaunches",
        arguments: [
            #"{"action": "click", "link": "https://shop.example.com/x", "text": "x"}"#, #"{"action": "close"}"#,
        ]
    )
    func untilVisitorInteracts(interaction: String) async {
        #expect(await pattern(.untilVisitorInteracts) == [true, true, true, true])

        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", frequency: .untilVisitorInteracts)])
        let manager = fixture.makeManager(source)
        let surface = InstantHTMLSurface()
        let placeholder = await manager.loadedPlaceholder(surface: surface).placeholder
        surface.postFromBridge(interaction)
        await manager.waitUntilIdle()
        withExtendedLifetime(placeholder) {}
        #expect(!(await shows(manager)))
        fixture.reporter.startNewSession()
        #expect(!(await shows(manager)))
        #expect(!(await shows(fixture.relaunch(source))))
    }

    /// Exponea's display frequency `only_once` (REFERENCE.md, "Frequency rules"): shown once, ever; a history
    /// kept for 30 days must not bring it back a month later.
    @Test("onlyOnce never returns, not even after the 30-day history retention")
    func onlyOnceOutlivesRetention() async {
        let fixture = ContentBlockFixture()
        let once = ScriptedContentBlockSource([.test("hero", frequency: .onlyOnce)])
        #expect(await shows(fixture.makeManager(once)))
        fixture.scheduler.advance(by: .seconds(29 * 24 * 3600))
        #expect(!(await shows(fixture.relaunch(once))))
        fixture.scheduler.advance(by: .seconds(24 * 3600 + 1))
        #expect(!(await shows(fixture.relaunch(once))), "30 days on, onlyOnce is still spent")
        fixture.scheduler.advance(by: .seconds(365 * 24 * 3600))
        #expect(!(await shows(fixture.relaunch(once))), "a year on too")
    }

    @Test("The retention period is configurable, and interactions expire too")
    func configurableRetention() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", frequency: .untilVisitorInteracts)])
        let manager = fixture.makeManager(
            source,
            configuration: fixture.configuration(historyRetention: .seconds(3600))
        )
        let surface = SimulatedHTMLSurface()
        let placeholder = await manager.loadedPlaceholder(surface: surface).placeholder
        try surface.close()
        await manager.waitUntilIdle()
        withExtendedLifetime(placeholder) {}
        #expect(!(await shows(manager)))
        fixture.scheduler.advance(by: .seconds(3601))
        #expect(await shows(manager))
    }

    @Test("History survives a relaunch in its file, and a corrupt file is set aside with an error, not a crash")
    func historyFile() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", frequency: .onlyOnce)])
        #expect(await shows(fixture.makeManager(source)))
        let file = fixture.directory.appendingPathComponent("content-block-history.json")
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("\"hero\""))

        try Data("{ not json".utf8).write(to: file)
        let manager = fixture.relaunch(source)
        #expect(await shows(manager))
        guard case .historyFailed(let path, let reason) = manager.lastError else {
            Issue.record("no history error: \(String(describing: manager.lastError))")
            return
        }
        #expect(path == file.path)
        #expect(reason.contains("moved to content-block-history.json.corrupt"))
        let aside = try String(contentsOf: file.appendingPathExtension("corrupt"), encoding: .utf8)
        #expect(aside == "{ not json")
    }
}
