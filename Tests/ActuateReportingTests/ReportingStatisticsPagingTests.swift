import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

/// Content events over several sessions: impressions, clicks, closes, a product click and a purchase.
private func contentEvents(sessions: Int) -> [ReportEvent] {
    let origin = Date(timeIntervalSince1970: 1_767_225_600)
    let banner = ContentReference.sampleAction(id: 7, name: "Banner")
    let offer = ContentReference.sampleCampaign(id: "spring", name: "Spring offer")
    var events: [ReportEvent] = []
    func add(_ event: SampleContent, _ content: ContentReference, session: Int, at offset: TimeInterval) {
        events.append(
            ReportEvent(
                type: event.type.rawValue,
                timestamp: origin.addingTimeInterval(offset),
                sessionID: "session-\(session)",
                anonymousID: "anon-\(session % 3)",
                properties: event.properties(for: content)
            )
        )
    }
    for session in 0..<sessions {
        let base = TimeInterval(session * 60)
        add(.executed, banner, session: session, at: base)
        add(.executed, offer, session: session, at: base + 1)
        if session % 2 == 0 { add(.target(), banner, session: session, at: base + 2) }
        if session % 3 == 0 { add(.close(), offer, session: session, at: base + 3) }
        if session % 5 == 0 { add(.product(productID: "p\(session)"), banner, session: session, at: base + 4) }
    }
    events.append(
        ReportEvent(
            type: "purchase",
            timestamp: origin.addingTimeInterval(30),
            sessionID: "session-0",
            anonymousID: "anon-0",
            properties: EventProperties.purchase(productIDs: ["p0"])
        )
    )
    return events
}

@Suite("Reporting statistics, page by page")
struct ReportingStatisticsPagingTests {
    @Test("a file store directory is read from a snapshot: figures match, the store is unchanged and may stay open")
    func readsFileStoreSnapshot() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "actuate-paging-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = contentEvents(sessions: 30)
        let store = try FileEventStore(
            directory: directory,
            configuration: FileEventStoreConfiguration(durability: .synced, segmentSize: 4096, maxTotalBytes: 1 << 20)
        )
        for event in events { try store.append(event) }
        try store.moveToDeadLetter(ids: [events[3].id], reason: "HTTP 422")
        try store.remove(ids: [events[4].id])
        let expected = try ReportingStatistics(store: store)
        let filesBefore = try journalContents(of: directory)

        let paged = try ReportingStatistics(fileStoreDirectory: directory, pageSize: 10)

        #expect(paged == expected)
        #expect(paged.deadLetterCount == 1)
        #expect(paged.eventCount == events.count - 2)
        #expect(try journalContents(of: directory) == filesBefore)
        #expect(try store.count() == events.count - 2)
        try store.close()
    }

    @Test("a missing directory, a file and a directory without journals give clear errors")
    func badDirectories() throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "actuate-paging-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base.appending(path: "empty"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: base.appending(path: "file"))
        let cases = [
            ("missing", "there is no such directory"),
            ("file", "it is a file, not a store directory"),
            ("empty", "it holds no event journal"),
        ]
        for (name, reason) in cases {
            let path = base.appending(path: name)
            #expect {
                try ReportingStatistics(fileStoreDirectory: path)
            } throws: { error in
                let message = "\(error)"
                return message.contains(reason) && message.contains(path.path)
            }
        }
    }

    private func journalContents(of directory: URL) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".journal")
        {
            contents[name] = try Data(contentsOf: directory.appending(path: name))
        }
        return contents
    }
}
