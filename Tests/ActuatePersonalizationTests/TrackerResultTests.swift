import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting

@Suite("Tracker: results, cache and sessions")
struct TrackerResultTests {
    private static let banner = ContentAction.banner()
    private static let other = ContentAction(
        id: 8,
        name: "Recommendations",
        contentType: "application/json",
        content: "[]"
    )

    @Test("results come back attached to the tracker")
    func attached() async throws {
        let source = ScriptedDecisionSource(answers: [
            .result(TrackerResult(conditions: [TrackerCondition(id: 1, name: "All")], actions: [Self.banner]))
        ])
        let fixture = TrackerFixture(source: source)
        let result = try await fixture.tracker.getResult()
        #expect(result.conditions == [TrackerCondition(id: 1, name: "All")])
        #expect(result.actions == [Self.banner])
        #expect(result.actions.first?.tracker === fixture.tracker)
        #expect(result.actions.first?.reportExecuted() == .sent)
    }

    @Test("an incremental source is asked only while commands are pending, and gets them")
    func incrementalAsksWithCommands() async throws {
        let source = ScriptedDecisionSource(fallback: .result(TrackerResult(actions: [Self.banner])))
        let fixture = TrackerFixture(source: source)
        _ = try await fixture.tracker.getResult()
        _ = try await fixture.tracker.getResult()
        #expect(source.requests.count == 1, "the second call answers from the cache")
        try fixture.tracker.productViewed(productID: "p1")
        try fixture.tracker.logUserData(field: "tier", value: "gold")
        _ = try await fixture.tracker.getResult()
        #expect(source.requests.count == 2)
        #expect(
            source.requests[1].commands == [
                .product(.viewed, productID: "p1"), .userData(field: "tier", value: "gold"),
            ]
        )
        #expect(source.requests[1].profile.viewedProducts == ["p1"])
        #expect(source.requests[1].visitorID == fixture.reporter.identity.anonymousID)
        #expect(fixture.tracker.pendingCommands.isEmpty)
    }

    @Test("a local source is asked every time and is not sent commands")
    func localAsksEveryTime() async throws {
        let source = ScriptedDecisionSource(incremental: false)
        let fixture = TrackerFixture(source: source)
        try fixture.tracker.productViewed(productID: "p1")
        _ = try await fixture.tracker.getResult()
        _ = try await fixture.tracker.getResult()
        #expect(source.requests.count == 2)
        #expect(source.requests.allSatisfy { $0.commands.isEmpty })
        #expect(source.requests.last?.profile.viewedProducts == ["p1"])
    }

    @Test("answers merge into the cache, and replace it after a navigate")
    func mergeAndReplace() async throws {
        let source = ScriptedDecisionSource(answers: [
            .result(TrackerResult(conditions: [TrackerCondition(id: 1)], actions: [Self.banner])),
            .result(TrackerResult(conditions: [TrackerCondition(id: 2)], actions: [Self.other])),
            .result(TrackerResult(actions: [Self.other])),
        ])
        let fixture = TrackerFixture(source: source)
        _ = try await fixture.tracker.getResult()
        try fixture.tracker.productViewed(productID: "p1")
        let merged = try await fixture.tracker.getResult()
        #expect(merged.actions.map(\.id) == [7, 8])
        #expect(merged.conditions.map(\.id) == [1, 2])
        try fixture.tracker.navigate(documentName: "cart")
        let replaced = try await fixture.tracker.getResult()
        #expect(replaced.actions.map(\.id) == [8])
        #expect(replaced.conditions.isEmpty)
    }

    @Test("a failing source throws with the last good result and changes nothing; commands are kept and resent")
    func failingSourceKeepsCache() async throws {
        let source = ScriptedDecisionSource(answers: [
            .result(TrackerResult(actions: [Self.banner])),
            .failure("connection refused"),
        ])
        let fixture = TrackerFixture(source: source)
        _ = try await fixture.tracker.getResult()
        try fixture.tracker.productViewed(productID: "p1")
        do {
            _ = try await fixture.tracker.getResult()
            Issue.record("expected the failure to be thrown")
        } catch {
            guard case .decisionFailed(let reason, let lastGood) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reason == "connection refused")
            #expect(lastGood?.actions == [Self.banner])
            #expect(lastGood?.actions.first?.tracker === fixture.tracker)
            #expect(
                error.description
                    == "The decision source failed: connection refused; the last good result (1 actions) is kept."
            )
        }
        #expect(fixture.tracker.cachedResult?.actions == [Self.banner])
        #expect(fixture.tracker.pendingCommands == [.product(.viewed, productID: "p1")])
        source.setFallback(.result(TrackerResult(actions: [Self.other])))
        _ = try await fixture.tracker.getResult()
        #expect(source.requests.last?.commands == [.product(.viewed, productID: "p1")])
        #expect(fixture.tracker.pendingCommands.isEmpty)
    }

    @Test("right after a relaunch the cached result answers, without asking the source")
    func cacheSurvivesRelaunch() async throws {
        let first = TrackerFixture(
            source: ScriptedDecisionSource(answers: [
                .result(TrackerResult(conditions: [TrackerCondition(id: 1, name: "All")], actions: [Self.banner]))
            ])
        )
        _ = try await first.tracker.getResult()
        let failing = ScriptedDecisionSource(fallback: .failure("offline"))
        let second = await first.relaunched(source: failing)
        let result = try await second.tracker.getResult()
        #expect(result.actions == [Self.banner])
        #expect(result.conditions == [TrackerCondition(id: 1, name: "All")])
        #expect(failing.requests.isEmpty)
    }

    @Test("pending commands survive a relaunch once a request was attempted")
    func pendingSurvivesRelaunch() async throws {
        let first = TrackerFixture(source: ScriptedDecisionSource(fallback: .failure("offline")))
        try first.tracker.productViewed(productID: "p1")
        _ = try? await first.tracker.getResult()
        let source = ScriptedDecisionSource()
        let second = await first.relaunched(source: source)
        _ = try await second.tracker.getResult()
        #expect(source.requests.first?.commands == [.product(.viewed, productID: "p1")])
        #expect(second.tracker.profile.viewedProducts == ["p1"])
    }

    @Test("with a local source, the behaviour profile is saved when results are asked for, and survives a relaunch")
    func localProfileSurvivesRelaunch() async throws {
        let first = TrackerFixture(source: ScriptedDecisionSource(incremental: false))
        try first.tracker.navigate(documentName: "product/sku-1")
        try first.tracker.productViewed(productID: "sku-1")
        _ = try await first.tracker.getResult()
        let second = await first.relaunched(source: ScriptedDecisionSource(incremental: false))
        #expect(second.tracker.profile.viewedProducts == ["sku-1"])
        #expect(second.tracker.profile.currentDocument == "product/sku-1")
        #expect(second.tracker.pendingCommands.isEmpty, "a local source needs no pending commands")
    }

    @Test("unreadable files are moved aside and reported; the tracker starts afresh")
    func corruptFiles() async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try Data("{\"version\": 1, \"sessionCo".utf8).write(to: directory.appending("tracker-state.json"))
        try Data("[1, 2".utf8).write(to: directory.appending("tracker-result.json"))
        let source = ScriptedDecisionSource(fallback: .result(TrackerResult(actions: [Self.banner])))
        let fixture = TrackerFixture(source: source, directory: directory)
        #expect(fixture.errors.all.count == 2)
        guard case .storageFailed(let path, _) = fixture.tracker.lastError else {
            Issue.record("expected a storage error, got \(String(describing: fixture.tracker.lastError))")
            return
        }
        #expect(path.hasSuffix("tracker-result.json"))
        #expect(FileManager.default.fileExists(atPath: directory.appending("tracker-state.json.corrupt").path))
        #expect(FileManager.default.fileExists(atPath: directory.appending("tracker-result.json.corrupt").path))
        #expect(try await fixture.tracker.getResult().actions == [Self.banner])
    }

    @Test("startNewSession starts a reporting session, counts it and clears the cached result")
    func startNewSession() async throws {
        let source = ScriptedDecisionSource(fallback: .result(TrackerResult(actions: [Self.banner])))
        let fixture = TrackerFixture(source: source)
        _ = try await fixture.tracker.getResult()
        let before = fixture.tracker.sessionCount
        let sessionBefore = fixture.reporter.currentSession?.id
        fixture.tracker.startNewSession()
        #expect(fixture.tracker.sessionCount == before + 1)
        #expect(fixture.reporter.currentSession?.id != sessionBefore)
        #expect(fixture.tracker.cachedResult == nil)
        _ = try await fixture.tracker.getResult()
        #expect(source.requests.count == 2)
    }
}
