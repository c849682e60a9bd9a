import ActuateFuzzEntryPoints
import Foundation
import Testing

@testable import ActuateReporting

/// Replays the committed corpora of the reporting fuzz targets (`Tests/Fuzz/JournalRecord`,
/// `Tests/Fuzz/UploadResponse`) through their entry points, so that every input the fuzzers kept, including any
/// that once crashed, stays a regression test.
@Suite("Reporting fuzzing corpora")
struct ReportingFuzzingTests {
    private static let fuzz = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fuzz")

    private static func corpus(_ target: String) throws -> [String: Data] {
        let folder = fuzz.appending(path: "\(target)/corpus")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        return try Dictionary(uniqueKeysWithValues: files.map { ($0.lastPathComponent, try Data(contentsOf: $0)) })
    }

    @Test("Journal bytes: valid records are recovered, damaged ones are skipped and reported, nothing crashes")
    func journalRecords() throws {
        let outcomes = try Self.corpus("JournalRecord").mapValues { ReportingFuzzing.journalRecord($0) }
        let valid = try #require(outcomes["valid-segment.bin"])
        // Three events and a tombstone that removes the second one.
        #expect(valid.recordsScanned == 5)
        #expect(valid.eventsRecovered == 2)
        let truncated = try #require(outcomes["truncated-segment.bin"])
        #expect(truncated.recordsScanned == 3)
        #expect(truncated.damageReported)
        let flipped = try #require(outcomes["flipped-byte.bin"])
        #expect(flipped.recordsScanned == 4)
        #expect(flipped.damageReported)
        #expect(flipped.eventsRecovered == 1)
        // A payload sealed with a valid checksum reaches recovery and is served.
        #expect(outcomes["sealed-event.bin"]?.eventsRecovered == 1)
        // Removed, then appended again under a later sequence: both events are stored once each.
        #expect(outcomes["sealed-remove-and-reappend.bin"]?.eventsRecovered == 2)
        // An event already in the dead-letter file (a crash while moving it there) is not served again.
        #expect(outcomes["sealed-event-already-dead-lettered.bin"]?.eventsRecovered == 1)
        #expect(outcomes["dead-letters.bin"]?.recordsScanned == 2)
    }

    @Test("Upload responses: each is classified and acted on as the uploader's rules say")
    func uploadResponses() throws {
        let summaries = try Self.corpus("UploadResponse").mapValues { ReportingFuzzing.uploadResponse($0) }
        let expected = [
            "200-ok.txt": "acknowledged acknowledge 3",
            "200-malformed-body.txt": "acknowledged acknowledge 3",
            "500.txt": "retryable retry",
            "503-retry-after-seconds.txt": "throttled pause 2.0 seconds",
            "429-retry-after-date.txt": "throttled pause 0.5 seconds",
            "429-retry-after-rfc850.txt": "throttled pause 0.5 seconds",
            "429-retry-after-invalid.txt": "throttled pause",
            "crash-retry-after-non-ascii-date.txt": "throttled pause",
            "413.txt": "tooLarge split",
            "400.txt": "rejected retry",
            "401.txt": "retryable retry",
            "301.txt": "misconfigured pause",
            "failed-timed-out.txt": "retryable retry",
            "failed-connection-lost.txt": "retryable retry",
            "failed-encoding.txt": "tooLarge split",
        ]
        for (file, prefix) in expected {
            let summary = try #require(summaries[file], "\(file) is missing from the corpus")
            #expect(summary.hasPrefix(prefix), "\(file): \(summary)")
        }
    }
}
