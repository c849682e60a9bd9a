import ActuateReporting
import ActuateTesting
import Dispatch
import Testing

@testable import ActuatePersonalization

@Suite("Campaign manager release")
struct CampaignManagerReleaseTests {
    @Test("A released manager drops the global handlers, so a handler that captures the global context frees it")
    func handlerCapturingGlobalContext() async throws {
        let engine: CampaignEngine
        weak var releasedEngine: CampaignEngine?
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
        // The fixture, and with it the manager, is gone: nothing may keep the handler, and so the context.
        #expect(engine.read { $0.contexts[CampaignDeliveryState.globalID]?.handlers.isEmpty } == true)
        releasedEngine = engine
        _ = consume engine
        // The request task or a completion on the delivery queue may hold the engine a moment longer.
        let deadline = DispatchTime.now() + .seconds(10)
        while releasedEngine != nil, DispatchTime.now() < deadline { await Task.yield() }
        #expect(releasedEngine == nil, "the engine, its state and the handler were kept alive by a cycle")
    }
}
