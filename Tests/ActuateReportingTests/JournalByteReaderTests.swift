import Foundation
import Testing

@testable import ActuateReporting

@Suite("Journal byte reader strings")
struct JournalByteReaderTests {
    /// Reads one length-prefixed string from `bytes`, as a journal payload holds it.
    static func readString(_ bytes: [UInt8]) throws -> String {
        var payload: [UInt8] = []
        ReportEventCodec.appendVarint(UInt64(bytes.count), to: &payload)
        payload += bytes
        return try payload.withUnsafeBytes { raw in
            var reader = JournalByteReader(raw)
            return try reader.string()
        }
    }

    @Test(
        "reads ASCII and other valid UTF-8 exactly",
        arguments: ["", "plain ascii \u{0} \u{7F}", "é à ü", "emoji 👍🏽", "ascii then 中文", "\u{10FFFF}"]
    )
    func readsValidText(text: String) throws {
        #expect(try Self.readString(Array(text.utf8)) == text)
    }

    @Test(
        "refuses invalid UTF-8, after ASCII or not",
        arguments: [
            [0xFF], [0x61, 0x62, 0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x61, 0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
        ]
    )
    func refusesInvalidText(bytes: [UInt8]) {
        #expect(throws: EventStoreError.self) { try Self.readString(bytes) }
    }
}
