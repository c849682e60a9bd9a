import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting

@Suite("ContentBlockManager")
struct ContentBlockManagerTests {
    @Test(
        "prefetchPlaceholders(ids:) loads every placeholder in one request, off the main queue, and placeholders use it"
    )
    func prefetch() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero"), .test("cart-offer", placeholders: ["cart"])])
        let manager = fixture.makeManager(source)
        manager.prefetchPlaceholders(ids: ["home", "cart"])
        await manager.waitUntilIdle()
        #expect(source.requests == [["home", "cart"]])

        let (home, _) = manager.deferredPlaceholder()
        let (cart, _) = manager.deferredPlaceholder("cart")
        await home.reloadAndWait(manager)
        await cart.reloadAndWait(manager)
        #expect(home.contentBlock?.id == "hero")
        #expect(cart.contentBlock?.id == "cart-offer")
        #expect(source.requests.count == 1)
        #expect(source.onMainThread == [false])
    }

    @Test("File and network work never runs on the main queue, even when the configuration names it")
    func neverOnTheMainQueue() async throws {
        let fixture = ContentBlockFixture()
        #expect(ContentBlockConfiguration().workQueue !== DispatchQueue.main)
        var configuration = fixture.configuration()
        configuration.workQueue = .main
        let source = ScriptedContentBlockSource([.test("hero")])
        let manager = fixture.makeManager(source, configuration: configuration)
        try #require(manager.configuration.workQueue !== DispatchQueue.main)
        let (home, _) = manager.deferredPlaceholder()
        await home.reloadAndWait(manager)
        #expect(home.contentBlock?.id == "hero")
        #expect(source.onMainThread == [false])
    }

    @Test("Personalized content is fetched again once its time-to-live has passed on the injected clock")
    func timeToLive() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", html: "<p>morning</p>", timeToLive: .seconds(60))])
        let manager = fixture.makeManager(source)
        let surface = InstantHTMLSurface()
        let (home, _) = manager.deferredPlaceholder(surface: surface)
        await home.reloadAndWait(manager)
        source.serve([.test("hero", html: "<p>afternoon</p>", timeToLive: .seconds(60))])
        fixture.scheduler.advance(by: .seconds(59))
        await home.reloadAndWait(manager)
        #expect(source.requests.count == 1)
        #expect(surface.documents.last?.contains("morning") == true)

        fixture.scheduler.advance(by: .seconds(1))
        await home.reloadAndWait(manager)
        #expect(source.requests.count == 2)
        #expect(surface.documents.last?.contains("afternoon") == true)
    }

    @Test("Content without a time-to-live stays cached until the next prefetch")
    func staticContentStays() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", html: "<p>old</p>")])
        let manager = fixture.makeManager(source)
        let surface = InstantHTMLSurface()
        let (home, _) = manager.deferredPlaceholder(surface: surface)
        await home.reloadAndWait(manager)
        source.serve([.test("hero", html: "<p>new</p>")])
        fixture.scheduler.advance(by: .seconds(7 * 24 * 3600))
        await home.reloadAndWait(manager)
        #expect(source.requests.count == 1)
        #expect(surface.documents.last?.contains("old") == true)

        manager.prefetchPlaceholders(ids: ["home"])
        await manager.waitUntilIdle()
        await home.reloadAndWait(manager)
        #expect(surface.documents.last?.contains("new") == true)
    }

    @Test("identify(userId:) prefetches again for the identified user")
    func identifyPrefetches() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero")])
        let manager = fixture.makeManager(source)
        manager.prefetchPlaceholders(ids: ["home"])
        await manager.waitUntilIdle()
        try manager.identify(userID: "customer-42")
        await manager.waitUntilIdle()
        #expect(source.requests == [["home"], ["home"]])
        #expect(source.identities.map(\.userID) == [nil, "customer-42"])
        #expect(fixture.reporter.identity.userID == "customer-42")
        #expect(throws: ReportingError.invalidUserID) { try manager.identify(userID: "") }
    }

    @Test("The reporter's reset() forgets the previous visitor's blocks and history and prefetches again")
    func resetForgets() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", frequency: .onlyOnce)])
        let manager = fixture.makeManager(source)
        manager.prefetchPlaceholders(ids: ["home"])
        await manager.waitUntilIdle()
        let (home, _) = manager.deferredPlaceholder()
        await home.reloadAndWait(manager)
        #expect(home.contentBlock?.id == "hero")
        let previous = fixture.reporter.identity.anonymousID
        await home.reloadAndWait(manager)
        #expect(home.contentBlock == nil)

        await fixture.reporter.reset()
        await manager.waitUntilIdle()
        #expect(source.requests.count == 2)
        #expect(source.identities.last?.anonymousID != previous)
        await home.reloadAndWait(manager)
        #expect(home.contentBlock?.id == "hero")
    }

    @Test("A failing source with nothing cached reports an error event that names the placeholder, and not ready")
    func failingSource() async throws {
        let fixture = ContentBlockFixture()
        let problems = Mutex<[ContentBlockError]>([])
        let source = ScriptedContentBlockSource([.test("hero")])
        source.fail(with: .sourceFailed(source: "test", reason: "offline"))
        var configuration = fixture.configuration()
        configuration.onError = { error in problems.withLock { $0.append(error) } }
        let manager = fixture.makeManager(source, configuration: configuration)
        let (home, callback) = manager.deferredPlaceholder()
        await home.reloadAndWait(manager)
        let message = "the content blocks could not be loaded from test: offline"
        #expect(callback.calls == [.error("home", blockID: nil, message: message)])
        #expect(callback.readyValues == [false])
        #expect(manager.lastError == .sourceFailed(source: "test", reason: "offline"))
        #expect(problems.withLock { $0 } == [.sourceFailed(source: "test", reason: "offline")])
        let event = try #require(try fixture.blockEvents().first)
        #expect(event.type == "content_block_error")
        #expect(event.properties[ContentBlockEventKey.placeholder] == "home")
        #expect(event.properties[ReportEventKey.message]?.stringValue == message)

        source.fail(with: nil)
        await home.reloadAndWait(manager)
        #expect(home.contentBlock?.id == "hero")
    }

    @Test("Expired personalized content is not shown when the source fails to refresh it")
    func expiredAndFailing() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero", timeToLive: .seconds(60))])
        let manager = fixture.makeManager(source)
        let (home, callback) = manager.deferredPlaceholder()
        await home.reloadAndWait(manager)
        source.fail(with: .sourceFailed(source: "test", reason: "offline"))
        fixture.scheduler.advance(by: .seconds(61))
        await home.reloadAndWait(manager)
        #expect(home.contentBlock == nil)
        #expect(callback.readyValues == [true, false])
    }

    @Test("A malformed rules file is refused where it is read, naming the file and the JSON path (issue 47.5)")
    func malformedRulesFile() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let file = directory.appending("rules.json")
        let json =
            #"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["home"], "html": "", "frequency": "daily"}]}"#
        try Data(json.utf8).write(to: file)
        let error = #expect(throws: RulesFileError.self) { try LocalContentBlockSource(contentsOf: file) }
        let message = error.map(String.init(describing:)) ?? ""
        #expect(message.contains(file.path), "\(message)")
        #expect(message.contains("$.contentBlocks[0].frequency: unknown frequency \"daily\""), "\(message)")
        #expect(throws: RulesFileError.self) { try LocalContentBlockSource(contentsOf: directory.appending("none")) }
    }

    @Test("A failing source is reported to onError once, however many placeholders and prefetches meet it (47.5)")
    func sourceFailureReportedOnce() async throws {
        let fixture = ContentBlockFixture()
        let errors = Mutex<[ContentBlockError]>([])
        var configuration = fixture.configuration()
        configuration.onError = { error in errors.withLock { $0.append(error) } }
        let source = ScriptedContentBlockSource([.test("hero")])
        source.fail(with: .sourceFailed(source: "test", reason: "offline"))
        let manager = fixture.makeManager(source, configuration: configuration)
        manager.prefetchPlaceholders(ids: ["home"])
        await manager.waitUntilIdle()
        let (home, callback) = manager.deferredPlaceholder()
        await home.reloadAndWait(manager)
        #expect(errors.withLock { $0 } == [.sourceFailed(source: "test", reason: "offline")])
        #expect(callback.readyValues == [false], "the placeholder still hears of it, once")
        #expect(try fixture.blockEvents().map(\.type) == ["content_block_error"])

        source.fail(with: nil)
        await home.reloadAndWait(manager)
        source.fail(with: .sourceFailed(source: "test", reason: "offline"))
        fixture.scheduler.advance(by: .seconds(1))
        manager.prefetchPlaceholders(ids: ["home"])
        await manager.waitUntilIdle()
        #expect(errors.withLock { $0 }.count == 2, "a failure after the source answered again is a new one")
    }

    @Test("A source that throws an error of its own is reported as a source failure naming the source's type")
    func foreignErrorBecomesSourceFailure() async throws {
        let fixture = ContentBlockFixture()
        let errors = Mutex<[ContentBlockError]>([])
        var configuration = fixture.configuration()
        configuration.onError = { error in errors.withLock { $0.append(error) } }
        let manager = fixture.makeManager(OfflineContentBlockSource(), configuration: configuration)
        let (home, callback) = manager.deferredPlaceholder()
        await home.reloadAndWait(manager)
        let expected = ContentBlockError.sourceFailed(source: "OfflineContentBlockSource", reason: "offline(retry: 3)")
        #expect(errors.withLock { $0 } == [expected])
        #expect(manager.lastError == expected)
        #expect(callback.readyValues == [false])
        #expect(home.contentBlock == nil)
    }

    @Test("The local source reads the contentBlocks array of the shared rules file and ignores the other parts")
    func sharedRulesFile() async throws {
        let fixture = ContentBlockFixture()
        let rules = #"""
            {
              "actions": [{ "id": 7, "name": "Banner", "contentType": "text/html", "content": "<p>hi</p>" }],
              "conditions": [{ "id": 1, "actions": [7] }],
              "campaigns": [],
              "contentBlocks": [
                { "id": "cart-offer", "name": "Cart offer", "placeholders": ["cart"], "html": "<p>10% off</p>" }
              ]
            }
            """#
        let source = try LocalContentBlockSource(data: Data(rules.utf8), name: "rules.json")
        let manager = fixture.makeManager(source)
        let (cart, _) = manager.deferredPlaceholder("cart")
        await cart.reloadAndWait(manager)
        #expect(cart.contentBlock?.id == "cart-offer")
    }
}

/// A source of an app's own that fails with an error of its own type, not a ``ContentBlockError``.
private struct OfflineContentBlockSource: ContentBlockSource {
    enum Failure: Error {
        case offline(retry: Int)
    }

    func loadBlocks(placeholderIDs: [String], identity: StoredIdentity) async throws -> [ContentBlock] {
        throw Failure.offline(retry: 3)
    }
}
