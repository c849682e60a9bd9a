import ActuateTestSupport
import Foundation
import Testing

@testable import ActuateReporting

/// Opening reads and verifies the segments a window at a time, ahead of registering the window before: the
/// result does not depend on where the windows fall.
@Suite("Journal recovery windows")
struct JournalRecoveryWindowTests {
    let temporary = TemporaryDirectory()

    func configuration(windowBytes: Int) throws -> FileEventStoreConfiguration {
        var configuration = FileEventStoreConfiguration(durability: .synced, segmentSize: 4096)
        configuration.recoveryWindowBytes = windowBytes
        return configuration
    }

    @Test(
        "a damaged journal opens with the same events and report in windows of one segment, of a few, and of all",
        arguments: [1, 3 * 4096, JournalCheckedSegment.windowBytes]
    )
    func sameResultInAnyWindows(windowBytes: Int) throws {
        let source = temporary.appending("journal")
        do {
            let store = try FileEventStore(directory: source, configuration: configuration(windowBytes: windowBytes))
            for event in StoreTestEvents.events(0..<120) { try store.append(event) }
            try store.remove(ids: StoreTestEvents.events(10..<30).map(\.id))
            try store.close()
        }
        let segments = try TemporaryDirectory.segments(in: source)
        try #require(segments.count >= 6)
        // A flipped byte in the second segment, an older segment cut short, and a torn newest segment.
        let changes: [(segment: Int, change: (inout [UInt8]) -> Void)] = [
            (1, { $0[300] ^= 0x10 }),
            (3, { $0.removeLast(40) }),
        ]
        for (segment, change) in changes {
            var bytes = try [UInt8](Data(contentsOf: segments[segment]))
            change(&bytes)
            try Data(bytes).write(to: segments[segment])
        }
        var newest = try [UInt8](Data(contentsOf: segments[segments.count - 1]))
        newest.removeLast(5)
        try Data(newest).write(to: segments[segments.count - 1])
        // The reference: every segment in one window, opened from a copy.
        let reference = temporary.appending("reference")
        try TemporaryDirectory.copyFiles(of: source, to: reference)
        let expected = try FileEventStore(
            directory: reference,
            configuration: configuration(windowBytes: .max)
        )

        let store = try FileEventStore(directory: source, configuration: configuration(windowBytes: windowBytes))
        #expect(!store.recoveryReport.isClean)
        #expect(store.recoveryReport.damage.count == 3)
        #expect(
            store.recoveryReport.damage.map { [$0.file, "\($0.byteRange)", "\($0.kind)"] }
                == expected.recoveryReport.damage.map { [$0.file, "\($0.byteRange)", "\($0.kind)"] }
        )
        #expect(store.recoveryReport.eventsRecovered == expected.recoveryReport.eventsRecovered)
        #expect(store.recoveryReport.eventsAlreadyRemoved == expected.recoveryReport.eventsAlreadyRemoved)
        #expect(try store.fetch(count: 1_000, maxBytes: .max) == expected.fetch(count: 1_000, maxBytes: .max))
        #expect(try store.count() < 100)
    }
}
