import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

#if os(Linux)
import Glibc

@Suite("FileEventStore reserves each new segment's disk space")
struct FileEventStoreSpaceReservationTests {
    let temporary = TemporaryDirectory()

    private func open(segmentSize: Int) throws -> FileEventStore {
        try FileEventStore(
            directory: temporary.url,
            configuration: FileEventStoreConfiguration(
                durability: .synced,
                segmentSize: segmentSize,
                maxTotalBytes: 8 * segmentSize,
                scheduler: TestScheduler()
            )
        )
    }

    /// The size and the bytes of disk blocks of the one segment file in the store's directory.
    private func segmentSizes() throws -> (size: Int, allocated: Int) {
        let names = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
            .filter { $0.hasPrefix("segment-") }
        try #require(names.count == 1, "expected one segment, found \(names)")
        var info = stat()
        try #require(stat(temporary.url.appending(path: names[0]).path, &info) == 0)
        return (Int(info.st_size), Int(info.st_blocks) * 512)
    }

    @Test("a new segment holds its capacity in disk blocks while its size stays what was written")
    func newSegmentIsReserved() throws {
        let segmentSize = 256 << 10
        let store = try open(segmentSize: segmentSize)
        let event = StoreTestEvents.event(at: 0)
        try store.append(event)
        let sizes = try segmentSizes()
        #expect(sizes.size < 4_096, "the file holds the header and one record, not the reservation")
        #expect(sizes.allocated >= segmentSize, "only \(sizes.allocated) bytes of blocks for \(sizes.size) bytes")
        try store.close()

        // Reopening reads exactly what was written: no reserved byte is taken for a record or for damage.
        let reopened = try open(segmentSize: segmentSize)
        #expect(reopened.recoveryReport.damage.isEmpty)
        #expect(try reopened.fetch(count: 10, maxBytes: .max) == [event])
        try reopened.append(StoreTestEvents.event(at: 1))
        #expect(try segmentSizes().size > sizes.size)
        #expect(try reopened.fetch(count: 10, maxBytes: .max) == StoreTestEvents.events(0..<2))
    }
}
#endif
