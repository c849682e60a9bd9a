import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting
@testable import ActuateTesting

/// Issue 47, point 4: "The duplicate window lasts for one process." The "Coming from Evergage" table says an
/// identical campaign is dropped within 30 minutes; each test runs two managers over one directory, as two launches.
@Suite("Campaign duplicate window across launches")
struct CampaignDuplicateWindowTests {
    static let c1 = Campaign.test("c1")

    /// One launch: a fixture over `directory` whose global context has a handler and tracks "Open Home".
    static func launch(_ directory: TemporaryDirectory, startDate: Date? = nil) async -> CampaignFixture {
        let fixture = CampaignFixture(offering: [("Open Home", c1)], directory: directory)
        if let startDate { fixture.scheduler.advance(to: startDate) }
        fixture.manager.globalContext.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        fixture.manager.globalContext.trackAction("Open Home")
        await fixture.settle()
        return fixture
    }

    @Test("A campaign delivered to the global context is still a duplicate after a relaunch within the window")
    func duplicateAfterRelaunch() async throws {
        let directory = TemporaryDirectory()
        let first = await Self.launch(directory)
        #expect(first.deliveries.summary == ["home: c1"])
        let start = first.scheduler.now()

        let second = await Self.launch(directory, startDate: start.addingTimeInterval(29 * 60))
        #expect(second.deliveries.summary.isEmpty, "29 minutes later, in a new process")
        #expect(
            second.decisions() == [
                "Drop Campaign: \(Self.c1) in global: identical to the campaign last delivered to this target"
            ]
        )
        second.scheduler.advance(by: .seconds(60))
        second.manager.globalContext.trackAction("Open Home")
        await second.settle()
        #expect(second.deliveries.summary == ["home: c1"], "the window ends 30 minutes after the first delivery")
    }

    @Test("A relaunch after the window delivers the campaign again, and the file keeps only recent deliveries")
    func deliveredAgainAfterWindow() async throws {
        let directory = TemporaryDirectory()
        let first = await Self.launch(directory)
        let start = first.scheduler.now()
        let second = await Self.launch(directory, startDate: start.addingTimeInterval(31 * 60))
        #expect(second.deliveries.summary == ["home: c1"])
        let file = try Data(contentsOf: directory.appending(CampaignTrackingStore.fileName))
        let saved = try JSONDecoder().decode(JSONValue.self, from: file)
        guard case .object(let object) = saved, case .array(let delivered) = object["delivered"] else {
            Issue.record("no delivered list in \(String(decoding: file, as: UTF8.self))")
            return
        }
        #expect(delivered.count == 1)
    }
}
