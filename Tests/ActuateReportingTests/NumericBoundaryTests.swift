import ActuateFuzzEntryPoints
import Foundation
import Testing

@testable import ActuateReporting

/// The numbers the reporting module reads from outside, at the values that trap careless conversions:
/// `Retry-After` headers and the events of journal records.
@Suite("Numeric boundaries of Retry-After and journal records")
struct NumericBoundaryTests {
    private static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    @Test(
        "Retry-After seconds are capped before conversion; leading zeros do not count towards the cap",
        arguments: [
            ("1e300", nil), ("-1e300", nil), ("1e16", nil), ("-0", nil), ("-1", nil), ("0.5", nil), ("1.5", nil),
            ("9223372036854775808", 999_999_999_999), ("18446744073709551616", 999_999_999_999),
            ("10000000000000000", 999_999_999_999), ("999999999999", 999_999_999_999),
            ("00000000000000000005", 5), ("0000000000000", 0),
        ] as [(String, Int64?)]
    )
    func retryAfterSeconds(value: String, expected: Int64?) {
        #expect(RetryAfter.delay(from: value, now: Self.now) == expected.map { .seconds($0) })
    }

    @Test("a Retry-After date thousands of years ahead is a long delay within the cap, or refused; never a trap")
    func retryAfterFarFutureDate() throws {
        let delay = try #require(RetryAfter.delay(from: "Fri, 31 Dec 9999 23:59:59 GMT", now: Self.now))
        #expect(delay > .seconds(250_000_000_000) && delay <= .seconds(999_999_999_999), "\(delay)")
        if let far = RetryAfter.delay(from: "Wed, 21 Oct 99999999999 07:28:00 GMT", now: Self.now) {
            #expect(far <= .seconds(999_999_999_999))
        }
    }

    @Test("journal records with extreme sequences, timestamps and numbers are read or refused, never trap")
    func journalRecords() throws {
        let corpus = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Fuzz/JournalRecord/corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasPrefix("extreme-") }
        #expect(names.count >= 5)
        var outcomes: [String: ReportingFuzzing.JournalOutcome] = [:]
        for name in names {
            outcomes[name] = ReportingFuzzing.journalRecord(try Data(contentsOf: corpus.appending(path: name)))
        }
        // Sequences at or past 2^62 are damage; below, an event with 1e300, -0, NaN and infinite numbers reads.
        #expect(outcomes["extreme-sequence-2-pow-63.bin"]?.eventsRecovered == 0)
        #expect(outcomes["extreme-sequence-max.bin"]?.eventsRecovered == 0)
        #expect(outcomes["extreme-sequence-at-limit.bin"]?.eventsRecovered == 1)
        #expect((outcomes["extreme-timestamps.bin"]?.eventsRecovered ?? 0) >= 1)
    }
}
