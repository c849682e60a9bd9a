import Foundation
import Testing

@testable import ActuateReporting

@Suite("Journal event key")
struct JournalEventKeyTests {
    /// Ids that differ in one byte only, as ids made by a counter would.
    func ids(differingAt byteIndex: Int) -> [UUID] {
        (0..<256).map { value in
            var bytes = [UInt8](repeating: 0x5A, count: 16)
            bytes[byteIndex] = UInt8(value)
            return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        }
    }

    @Test("the key read from an event payload is its id's key, and gives the id back; other payloads have none")
    func keyFromPayload() throws {
        for index in 0..<50 {
            let event = ReportEvent(type: "executed", timestamp: Date(), sessionID: "s", anonymousID: "a")
            var payload: [UInt8] = []
            try ReportEventCodec.encode(event, into: &payload)
            let key = try #require(payload.withUnsafeBytes { ReportEventCodec.idKey(in: $0) }, "event \(index)")
            #expect(key == JournalEventKey(event.id))
            #expect(key.id == event.id)
            payload[0] &+= 1
            #expect(payload.withUnsafeBytes { ReportEventCodec.idKey(in: $0) } == nil)
        }
        #expect([UInt8](repeating: 1, count: 16).withUnsafeBytes { ReportEventCodec.idKey(in: $0) } == nil)
    }

    @Test("equal ids hash alike for every seed, and a table finds each id it holds")
    func equalIDsHashAlike() {
        let ids = (0..<1_000).map { _ in UUID() }
        for seed in [0, 1, -1, 0x1234_5678] {
            for id in ids {
                #expect(JournalEventKey(id)._rawHashValue(seed: seed) == JournalEventKey(id)._rawHashValue(seed: seed))
            }
        }
        var table: [JournalEventKey: Int] = [:]
        for (index, id) in ids.enumerated() { table[JournalEventKey(id)] = index }
        #expect(table.count == ids.count)
        for (index, id) in ids.enumerated() { #expect(table[JournalEventKey(id)] == index) }
    }

    @Test("ids that differ in any one byte spread over a table's buckets", arguments: 0..<16)
    func idsDifferingInOneByteSpread(byteIndex: Int) {
        for seed in [0, 0x5EED] {
            let buckets = Set(ids(differingAt: byteIndex).map { JournalEventKey($0)._rawHashValue(seed: seed) & 255 })
            // 256 random values fill about 162 of 256 buckets; a weak mix of the byte would fill far fewer.
            #expect(buckets.count > 128, "byte \(byteIndex), seed \(seed): \(buckets.count) buckets")
        }
    }

    @Test("the seed changes the hash, so colliding ids cannot be chosen without it")
    func seedChangesHash() {
        let ids = (0..<100).map { _ in UUID() }
        let changed = ids.filter {
            JournalEventKey($0)._rawHashValue(seed: 1) != JournalEventKey($0)._rawHashValue(seed: 2)
        }
        #expect(changed.count == ids.count)
    }
}
