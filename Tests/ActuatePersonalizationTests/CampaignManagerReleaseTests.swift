import ActuateReporting
import ActuateTesting
import Testing

@testable import ActuatePersonalization

@Suite("Campaign manager release")
struct CampaignManagerReleaseTests {
    @Test("A released manager frees its engine even when a global handler captures the global context")
    func handlerCapturingGlobalContext() async throws {
        weak var engine: CampaignEngine?
        do {
            let fixture = CampaignFixture(offering: [("Open Home", .test("c1"))])
            let global = fixture.manager.globalContext
            // The documented pattern: the handler tracks the impression on its own context.
            global.setCampaignHandler({ global.trackImpression($0) }, forTarget: "banner")
            global.trackAction("Open Home")
            await fixture.settle()
            #expect(try fixture.events().map(\.type).contains("executed"), "the handler tracked no impression")
            engine = fixture.manager.engine
        }
        #expect(engine == nil, "the engine, its state and the handler were kept alive by a cycle")
    }
}
