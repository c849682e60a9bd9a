import Foundation
import Testing

@testable import ActuateReporting

@Suite("Statistics events: read straight from the bytes, they equal the events converted from the general decoder's")
struct StatisticsEventTests {
    /// Events in Actuate's shape that the byte decoder reads itself, each with something the general way reads
    /// differently from the plain case.
    static let directEvents = [
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D","type":"executed","timestamp":"2026-01-01T00:00:00.250Z","#
            + #""sessionID":"s-1","anonymousID":"visitor-1","properties":{"contentSource":"action","actionId":"3","#
            + #""actionName":"Offer 3"}}"#,
        #"{ "id" : "5f0e5c3a-9b7d-4c43-8e0b-1e2f3a4b5c6e", "type" : "target", "timestamp" : "2026-01-01T01:00:00+01:00","#
            + #" "sessionID" : "sé\u00e9\\n", "anonymousID" : "visitor-\u0032", "userID" : "user-ü","#
            + #" "properties" : { "actionId" : "Caf\u00e9 \"q\"", "actionName" : "Café", "note" : {"k":[1,{"z":null}]} } }"#,
        #"{"id":"not-a-uuid","type":"product","timestamp":"2026-01-02T00:00:00Z","sessionID":"s","anonymousID":"a","#
            + #""properties":{"actionId":"7","productId":"sku-1","productId":"","contentSource":5}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C70","type":"purchase","timestamp":"2026-01-02T00:00:00Z","#
            + #""anonymousID":"a","properties":{"productIds":["sku-1",2,"","sku-2","sku-1",["x"]],"productId":"sku-3"}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C71","type":"purchase","timestamp":"2026-01-02T00:00:00Z","#
            + #""anonymousID":"a","properties":{"productIds":"sku-1","productId":7}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C72","type":"action_ended","timestamp":"2026-01-02T00:00:00Z","#
            + #""sessionID":"s","anonymousID":"a","properties":{"analyticsId":"checkout","action":"Check Out","#
            + #""feature":"Shop","outcome":"failure","durationSeconds":0.1234,"source":"openURL","extra":-1.5e3}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C73","type":"action_ended","timestamp":"2026-01-02T00:00:00Z","#
            + #""sessionID":"s","anonymousID":"a","properties":{"analyticsId":"checkout","durationSeconds":"1","#
            + #""durationSeconds":12.5,"outcome":null,"source":"elsewhere","action":true}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C74","type":"url_opened","timestamp":"2026-01-02T00:00:00Z","#
            + #""sessionID":"s","anonymousID":"a","properties":{"result":"noMatch","url":"app:\/\/x?y=\u00e9"}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C75","type":"user_action","timestamp":"2026-01-02T00:00:00Z","#
            + #""sessionID":"s","anonymousID":"a","properties":null}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C76","type":"user_action","timestamp":"2026-01-02T00:00:00Z","#
            + #""sessionID":"s","anonymousID":"a","properties":{"name":"Add to Cart","name":"Buy","durationSeconds":-0.0}}"#,
    ]

    /// Events in the writer's layout whose id or time is not of the writer's fixed length, or not of its form at that
    /// length, each read by the general scan after the fixed-length reading declines it.
    static let writerLayoutEvents = [
        "5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D", "5f0e5c3a-9b7d-4c43-8e0b-1e2f3a4b5c6d",
        "not-a-uuid-but-thirty-six-bytes-long", "5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6",
        "5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6DX",
        "5F0E5C3A+9B7D-4C43-8E0B-1E2F3A4B5C6D",
    ].flatMap { id in
        [
            "2026-01-01T00:00:00.250Z", "2026-01-01T00:00:00.25Z", "2026-01-01T00:00:00.2500Z",
            "2026-01-01 23:59:60.999z",
            "2026-01-01T00:00:00+01:00", "2026-01-01T00:00:00.1+01:00", "2026-01-01T00:00:00Z",
        ].map { time in
            #"{"id":"\#(id)","type":"executed","timestamp":"\#(time)","sessionID":"s","anonymousID":"a","#
                + #""properties":{"actionId":"1"}}"#
        }
    }

    /// Objects the byte decoder leaves to the general way.
    static let otherObjects = [
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D","type":"executed","timestamp":"2026-01-01T00:00:00Z","extra":1}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D","type":"executed","timestamp":1767225600}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D","type":"executed","timestamp":"2026-01-01T00:00:00Z","#
            + #""properties":{},"properties":{"actionId":"1"}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D","type":"executed","timestamp":"2026-01-01T00:00:00Z","#
            + #""properties":{"action\u0049d":"1"}}"#,
        #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D","type":"executed","timestamp":"2026-01-01T00:00:00Z","#
            + #""userID":null}"#,
        #"{"messageId":"m-1","type":"track","event":"executed","timestamp":"2026-01-01T00:00:00Z"}"#,
    ]

    @Test(
        "each event read from the bytes equals the conversion of the event the general decoder reads",
        arguments: directEvents
    )
    func directEqualsGeneral(_ json: String) throws {
        var texts = StatisticsTexts()
        let direct = try Self.decode(json) { parser in
            try CollectedEventDecoding.statisticsEvent(&parser, texts: &texts)
        }
        let general = try Self.decode(json) { parser in
            let event = try CollectedEventDecoding.event(from: try parser.parseObject(depth: 1))
            return StatisticsEvent(event, texts: &texts)
        }
        #expect(direct == general)
    }

    @Test(
        "events in the writer's layout read by their fixed lengths or, when those decline, by the general scan",
        arguments: writerLayoutEvents
    )
    func writerLayout(_ json: String) throws {
        try directEqualsGeneral(json)
    }

    @Test("times of the writer's length that are not dates, ids with escapes, and ids or times cut off")
    func writerLayoutRefused() throws {
        let id = "5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D"
        let times = ["2026-13-01T00:00:00.250Z", #"2026-01-01T00:00:00.250\"#, "2026-01-01T00:00:00,250Z"]
        let cases = times.map { (id, $0) } + [(#"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6\u0044"#, "2026-01-01T00:00:00Z")]
        for (id, time) in cases {
            let json =
                #"{"id":"\#(id)","type":"executed","timestamp":"\#(time)","sessionID":"s","anonymousID":"a","#
                + #""properties":{}}"#
            var texts = StatisticsTexts()
            #expect(throws: JSONBytesParser.Failure.self) {
                try Self.decode(json) { parser in try CollectedEventDecoding.statisticsEvent(&parser, texts: &texts) }
            }
        }
        let whole = #"{"id":"\#(id)","type":"executed","timestamp":"2026-01-01T00:00:00.250Z","sessionID":"s"}"#
        for cut in [7, 30, 43, 44, 70, 76, 90, 100, 101, 110] {
            var texts = StatisticsTexts()
            let bytes = Array(whole.utf8.prefix(cut))
            let failure = bytes.withUnsafeBufferPointer { buffer -> JSONBytesParser.Failure? in
                var parser = JSONBytesParser(buffer)
                do throws(JSONBytesParser.Failure) {
                    _ = try CollectedEventDecoding.statisticsEvent(&parser, texts: &texts)
                    return nil
                } catch {
                    return error
                }
            }
            #expect(failure == .truncated, "cut at \(cut)")
        }
    }

    @Test("an event's rare fields are its own: changing a copy's leaves the original's alone")
    func rareFieldsAreValues() {
        var first = StatisticsEvent(id: UUID(), type: 1, timestamp: .now, session: 1, anonymous: 1)
        first.url = "app://a"
        first.purchasedProducts = [1, 2]
        var second = first
        #expect(second == first)
        second.url = "app://b"
        second.name = "Buy"
        second.purchasedProducts = []
        #expect(first.url == "app://a" && first.name == nil && first.purchasedProducts == [1, 2])
        #expect(second.url == "app://b" && second.name == "Buy" && second.purchasedProducts.isEmpty)
        #expect(second != first)
        var plain = StatisticsEvent(id: first.id, type: 1, timestamp: first.timestamp, session: 1, anonymous: 1)
        plain.result = nil
        plain.purchasedProducts = []
        var cleared = plain
        cleared.url = "x"
        cleared.url = nil
        #expect(plain == cleared)
    }

    @Test("short texts read again are given their number from the recent ones, for every length and last byte")
    func recentTexts() throws {
        var texts = StatisticsTexts()
        let ids = (0...17).flatMap { length in
            ["a", "b"].map { last in length == 0 ? "" : String(repeating: "x", count: length - 1) + last }
        }
        for round in 0..<2 {
            for id in ids {
                let json =
                    #"{"id":"5F0E5C3A-9B7D-4C43-8E0B-1E2F3A4B5C6D","type":"executed","timestamp":"2026-01-01T00:00:00Z","#
                    + #""sessionID":"s","anonymousID":"a","properties":{"actionId":"\#(id)","actionName":"n"}}"#
                let event = try Self.decode(json) { parser in
                    try CollectedEventDecoding.statisticsEvent(&parser, texts: &texts)
                }
                #expect(texts.text(event.contentID) == id, "round \(round)")
                #expect(event.contentID == texts.number(of: id))
            }
        }
    }

    @Test("objects of another shape are left to the general decoder", arguments: otherObjects)
    func otherShapes(_ json: String) {
        var texts = StatisticsTexts()
        #expect(throws: JSONBytesParser.Failure.self) {
            try Self.decode(json) { parser in try CollectedEventDecoding.statisticsEvent(&parser, texts: &texts) }
        }
    }

    @Test("the fixed texts have their numbers, and new texts are numbered in order, each once, across growth")
    func texts() {
        var texts = StatisticsTexts()
        #expect(texts.text(StatisticsTexts.purchase) == ReportEventType.purchase.rawValue)
        #expect(texts.text(StatisticsTexts.actionEnded) == ReportEventType.actionEnded.rawValue)
        #expect(texts.text(StatisticsTexts.empty) == "")
        #expect(texts.text(StatisticsTexts.appAction) == ContentSource.appAction.rawValue)
        #expect(texts.text(0) == nil)
        for status in ContentStatus.allCases {
            var event = StatisticsEvent(
                id: UUID(),
                type: texts.number(of: status.rawValue),
                timestamp: .now,
                session: 1,
                anonymous: 1
            )
            #expect(event.contentStatus == status)
            for source in ArrivalSource.allCases {
                event.arrivalSource = texts.number(of: source.rawValue)
                #expect(event.arrival == source)
            }
        }
        let first = texts.count
        let words = (0..<2_000).map { "text-\($0 % 1_500)-é" }
        let numbers = words.map { texts.number(of: $0) }
        for (word, number) in zip(words, numbers) {
            #expect(texts.text(number) == word)
            #expect(texts.number(of: word) == number)
        }
        #expect(texts.count == first + 1_500)
    }

    @Test("ids parse as Foundation parses them, in either case, and a byte that is not a hex digit is refused")
    func identifiers() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(CollectedEventDecoding.uuid(parsing: id.uuidString) == id)
            #expect(CollectedEventDecoding.uuid(parsing: id.uuidString.lowercased()) == id)
        }
        let base = Array("0123ABCD-4567-89ef-abcd-EF0123456789".utf8)
        #expect(
            CollectedEventDecoding.uuid(parsing: String(decoding: base, as: UTF8.self))
                == UUID(uuidString: String(decoding: base, as: UTF8.self))
        )
        for index in base.indices where base[index] != UInt8(ascii: "-") {
            for bad in [
                UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"),
                UInt8(ascii: "`"), 0x10, 0xC3,
            ] {
                var bytes = base
                bytes[index] = bad
                #expect(CollectedEventDecoding.uuid(parsing: String(decoding: bytes, as: UTF8.self)) == nil)
            }
        }
    }

    @Test("hashes of a string and of its bytes agree, and tell ASCII from other text")
    func hashes() {
        for text in ["", "a", "visitor-145160", "exactly8", "sixteen-bytes-ok", "Café", "s\u{0}x"] {
            var copy = text
            let (hash, isASCII) = copy.withUTF8 { IDHash.ofASCII(utf8: $0) }
            #expect(hash == IDHash.of(text))
            #expect(isASCII == text.utf8.allSatisfy { $0 < 0x80 })
        }
        // A tail read as one masked word hashes as the same bytes read one at a time.
        let padded = Array("visitor-14516012345678".utf8)
        for count in 0...14 {
            let (whole, _) = padded.withUnsafeBufferPointer {
                IDHash.ofASCII(utf8: UnsafeBufferPointer(rebasing: $0[0..<count]), readable: $0.count)
            }
            #expect(whole == IDHash.of(String(decoding: padded[0..<count], as: UTF8.self)))
        }
        #expect(IDHash.of("ab") != IDHash.of("ba"))
        #expect(IDHash.of("12345678a") != IDHash.of("12345678b"))
    }

    @Test("short decimals are computed from their digits exactly as Double(text) parses them")
    func decimals() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0.1", "-0.0", "0.30000000000000004", "123456789.012345", "1.5", "9007199254740993.5", "1e3", "-2.5E-3",
        ]
        for _ in 0..<5_000 {
            let digits = Int.random(in: 1...15, using: &generator)
            let value = UInt64.random(in: 0..<UInt64(pow(10, Double(digits))), using: &generator)
            let text = String(value)
            let point = Int.random(in: 0..<text.count, using: &generator)
            texts.append(String(text.prefix(point).isEmpty ? "0" : text.prefix(point)) + "." + text.dropFirst(point))
        }
        for text in texts {
            let parsed = try Self.decode(text + ",") { parser in try parser.parseNumber() }
            #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    @Test("skipping a value accepts and refuses what parsing it does, and ends where it ends")
    func skipping() {
        let values = [
            #"{"a":[1,2,{"b":"\u00e9"}],"c":null}"#, #"[1,,2]"#, #"{"a" 1}"#, #""\q""#, #"[true,fals]"#, #"-"#,
            String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
        ]
        for value in values {
            let bytes = Array((value + " ").utf8)
            let parsed = bytes.withUnsafeBufferPointer { buffer -> Int? in
                var parser = JSONBytesParser(buffer)
                return (try? parser.parseValue(depth: 1)) != nil ? parser.position : nil
            }
            let skipped = bytes.withUnsafeBufferPointer { buffer -> Int? in
                var parser = JSONBytesParser(buffer)
                return (try? parser.skipValue(depth: 1)) != nil ? parser.position : nil
            }
            #expect(parsed == skipped, "\(value)")
        }
    }

    private static func decode<Result>(
        _ json: String,
        _ body: (inout JSONBytesParser) throws -> Result
    ) throws -> Result {
        try Array(json.utf8).withUnsafeBufferPointer { bytes in
            var parser = JSONBytesParser(bytes)
            return try body(&parser)
        }
    }
}
