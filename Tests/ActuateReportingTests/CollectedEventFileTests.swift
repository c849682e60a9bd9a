import Foundation
import Testing

@testable import ActuateReporting

@Suite("Collected event files: the id set, the byte parser and the shapes read")
struct CollectedEventFileTests {
    /// `count` random ids, as a collector receives them.
    static func randomIDs(_ count: Int) -> [UUID] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            UUID(
                uuid: withUnsafeBytes(of: (generator.next() as UInt64, generator.next() as UInt64)) { raw in
                    raw.load(as: uuid_t.self)
                }
            )
        }
    }

    @Test("300,000 ids are each new once, repeats are not, in under 8 bytes / 0.6 a slot")
    func idSet() {
        var set = EventIDSet()
        let ids = Self.randomIDs(300_000)
        #expect(ids.allSatisfy { set.insert($0) })
        #expect(!ids.contains { set.insert($0) })
        #expect(set.count == ids.count)
        #expect(set.tableBytes <= ids.count * 8 * 10 / 6)
    }

    @Test("a set sized for 300,000 ids takes its tables up front, and those ids hardly grow it")
    func idSetSizedUpFront() {
        var set = EventIDSet(expectedCount: 300_000)
        let reserved = set.tableBytes
        #expect(reserved >= 300_000 * 6)
        let ids = Self.randomIDs(300_000)
        #expect(ids.allSatisfy { set.insert($0) })
        #expect(!ids.contains { set.insert($0) })
        #expect(set.count == ids.count)
        // A few tables get more ids than the spread they were given room for, and grow once.
        #expect(set.tableBytes <= reserved + reserved / 50)
        #expect(EventIDSet(expectedCount: 1_000).tableBytes == 0)
    }

    @Test("the id set is sized from the files' bytes, 256 an event; directories and missing paths count nothing")
    func expectedEventCount() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let first = directory.appending("first.json")
        let second = directory.appending("second.json")
        try Data(count: 256_000).write(to: first)
        try Data(count: 2_560).write(to: second)
        let paths = [first.path, second.path, directory.url.path, first.path + ".missing"]
        #expect(AudienceEvents.expectedEventCount(paths) == 1_010)
        #expect(AudienceEvents.expectedEventCount([directory.url.path]) == 0)
    }

    @Test("strings with escapes, surrogate pairs and raw UTF-8 parse as JSON says; deep nesting is refused")
    func parser() throws {
        let text = #"{"a":"\u00e9\ud83d\ude00\n\"x\"","b":[1,-2.5e1,true,null],"c":"ü"}"#
        let value = Array(text.utf8).withUnsafeBufferPointer { bytes in
            var parser = JSONBytesParser(bytes)
            return try? parser.parseValue()
        }
        #expect(value == .object(["a": "é😀\n\"x\"", "b": [1, -25, true, nil], "c": "ü"]))
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let failure = Array(deep.utf8).withUnsafeBufferPointer { bytes -> JSONBytesParser.Failure? in
            var parser = JSONBytesParser(bytes)
            do throws(JSONBytesParser.Failure) {
                _ = try parser.parseValue()
                return nil
            } catch {
                return error
            }
        }
        #expect(failure == .invalid("nesting deeper than 64 levels"))
    }

    @Test("ids in either case are one id; dates with offsets and fractions are read exactly")
    func idsAndDates() {
        let id = UUID()
        #expect(CollectedEventDecoding.uuid(parsing: id.uuidString.lowercased()) == id)
        #expect(CollectedEventDecoding.uuid(parsing: "ajs-1") == nil)
        #expect(CollectedEventDecoding.derivedUUID(of: "ajs-1") == CollectedEventDecoding.derivedUUID(of: "ajs-1"))
        #expect(
            ISO8601Text.date(from: "2026-01-01T01:00:00.250+01:00") == Date(timeIntervalSince1970: 1_767_225_600.25)
        )
        #expect(ISO8601Text.date(from: "2026-01-01T00:00:00Z") == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(ISO8601Text.date(from: "2026-13-01T00:00:00Z") == nil)
    }

    @Test("an envelope with batch after sentAt, two batches on a line, an identify message and an event line")
    func shapes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("collected-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mixed.json").path
        let event =
            #"{"id":"00000000-0000-0000-0000-00000000000%d","type":"executed","timestamp":"2026-01-01T00:00:00.000Z","sessionID":"s","anonymousID":"a","properties":{}}"#
        func line(_ number: Int) -> String { event.replacingOccurrences(of: "%d", with: String(number)) }
        let identify =
            #"{"type":"identify","messageId":"m-1","userId":"u","timestamp":"2026-01-01T00:00:00Z","traits":{"tier":"gold"}}"#
        let text =
            "\u{FEFF}{\"sentAt\":\"2026-01-01T00:00:00Z\",\"batch\":[\(line(1)),\(line(2))]}\n"
            + "{\"batch\":[\(line(3))],\"sentAt\":\"x\"} {\"batch\":[],\"context\":{\"a\":[1]}}\n"
            + "\(identify)\n  \(line(4))\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var events: [ReportEvent] = []
        try CollectedEventFile.forEachEvent(atPath: path) { events.append($0) }
        #expect(events.map(\.type) == ["executed", "executed", "executed", "identify", "executed"])
        #expect(events[3].userID == "u" && events[3].properties["tier"] == "gold" && events[3].anonymousID == "")
        #expect(events.last?.id.uuidString == "00000000-0000-0000-0000-000000000004")
    }

    @Test("events read straight from the bytes equal the dictionary path's, and unusual members fall back to it")
    func directDecoding() throws {
        let objects = [
            #"{"id":"0a000000-0000-0000-0000-000000000001","type":"executed","timestamp":"2026-01-01T00:00:00.125Z","sessionID":"s-1","anonymousID":"a","userID":"u","properties":{"contentSource":"action","actionId":"3","actionName":"Caf\u00e9 \"x\"","n":[1,2.5,{"k":null}]}}"#,
            #"{"type":"close","id":"0a000000-0000-0000-0000-000000000002","sessionID":"s\n2","anonymousID":"a","timestamp":"2026-01-01T01:00:00+01:00","properties":null}"#,
            #"{"id":"0A000000-0000-0000-0000-00000000000A","type":"target","timestamp":1767225600.5,"sessionID":7,"anonymousID":"a"}"#,
            #"{"id":"not-a-uuid","type":"x","timestamp":"2026-01-01T00:00:00Z","sessionID":"s","anonymousID":"a","extra":1,"properties":{}}"#,
            #"{"id":"a\u0062c","type":"x","timestamp":"2026-01-01T00:00:00Z","sessionID":"s","anonymousID":"a","properties":{}}"#,
            #"{"id":"0a000000-0000-0000-0000-000000000003","type":"x","type":"y","timestamp":"2026-01-01T00:00:00Z","anonymousID":"a","userID":null}"#,
            #"{"messageId":"m-1","type":"track","event":"executed","anonymousId":"a","timestamp":"2026-01-01T00:00:00Z","properties":{"actionId":"1"}}"#,
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("batch.json").path
        let text =
            "{\"batch\":[\(objects.joined(separator: ","))],\"sentAt\":\"2026-01-01T00:00:00Z\"}\n"
            + objects.joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var events: [ReportEvent] = []
        try CollectedEventFile.forEachEvent(atPath: path) { events.append($0) }
        let expected = try objects.map { object in
            let members = try Array(object.utf8).withUnsafeBufferPointer { bytes in
                var parser = JSONBytesParser(bytes)
                return try parser.parseObject(depth: 1)
            }
            return try CollectedEventDecoding.event(from: members)
        }
        #expect(events == expected + expected)
        #expect(events[0].properties["actionName"] == "Café \"x\"" && events[1].sessionID == "s\n2")
        #expect(events[2].sessionID == "" && events[5].type == "y" && events[5].userID == nil)
    }

    @Test("a string's end, escape or control character is found at every offset of the eight-byte scan")
    func stringStops() {
        func parse(_ text: [UInt8]) -> Result<String, JSONBytesParser.Failure> {
            text.withUnsafeBufferPointer { bytes in
                var parser = JSONBytesParser(bytes)
                do throws(JSONBytesParser.Failure) {
                    return .success(try parser.parseString())
                } catch {
                    return .failure(error)
                }
            }
        }
        for length in 0..<20 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            let quote = UInt8(ascii: "\"")
            #expect(parse([quote] + plain + [quote, quote]) == .success(String(repeating: "a", count: length)))
            #expect(
                parse([quote] + plain + [UInt8(ascii: "\\"), UInt8(ascii: "n"), quote]).map(\.count)
                    == .success(length + 1)
            )
            #expect(
                parse([quote] + plain + [0x1F, quote]) == .failure(.invalid("a control character inside a string"))
            )
            #expect(parse([quote] + plain + [0xC3, 0xA9]) == .failure(.truncated))
        }
    }
}
