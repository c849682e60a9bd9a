import Foundation

extension CollectedEventDecoding {
    /// Decodes an event object in Actuate's own shape straight from the parser's bytes into a ``StatisticsEvent``:
    /// no string is made for an ASCII text without escapes (it is hashed or numbered in place), and properties the
    /// statistics do not read are skipped, not built.
    ///
    /// It gives what ``StatisticsEvent/init(_:texts:)`` gives for the ``ReportEvent`` that ``actuateEvent(_:)`` would
    /// decode: a property's last value counts, and a value of another kind counts as missing. It reads the same
    /// objects as ``actuateEvent(_:)`` does, and throws ``JSONBytesParser/Failure/invalid(_:)`` for the others (and
    /// for a `properties` member given twice), so that the caller reads them the general way.
    /// - Parameters:
    ///   - parser: A parser whose next value is the object; on success it is moved past the object.
    ///   - texts: Where the event's texts are numbered.
    /// - Returns: The event.
    /// - Throws: ``JSONBytesParser/Failure/truncated`` when the window ends inside the object;
    ///   ``JSONBytesParser/Failure/invalid(_:)`` when the caller must read the object the general way.
    static func statisticsEvent(
        _ parser: inout JSONBytesParser,
        texts: inout StatisticsTexts
    ) throws(JSONBytesParser.Failure) -> StatisticsEvent {
        let objectStart = parser.position
        if let event = try writerLayoutEvent(&parser, texts: &texts) { return event }
        parser.position = objectStart
        try parser.expect(UInt8(ascii: "{"), "{")
        if try parser.consume(UInt8(ascii: "}")) { throw otherEvent }
        var event = StatisticsEvent(
            id: noID,
            type: 0,
            timestamp: Date(timeIntervalSinceReferenceDate: 0),
            session: emptyHash,
            anonymous: emptyHash
        )
        var hasID = false
        var hasTimestamp = false
        var hasProperties = false
        var products = ProductIDs()
        while true {
            guard try parser.peek() == UInt8(ascii: "\""), let key = try parser.parseUnescapedString() else {
                throw otherEvent
            }
            try parser.expect(UInt8(ascii: ":"), "':' after a member name")
            let isString = try parser.peek() == UInt8(ascii: "\"")
            switch key.count {
            case 2 where parser.isText("id", at: key):
                guard isString, let digits = try parser.parseUnescapedString(), !digits.isEmpty else {
                    throw otherEvent
                }
                event.id = parser.withBytes(at: digits) { bytes in
                    uuid(utf8: bytes) ?? derivedUUID(of: String(decoding: bytes, as: UTF8.self))
                }
                hasID = true
            case 4 where parser.isText("type", at: key):
                guard isString else { throw otherEvent }
                event.type = try text(&parser, &texts)
            case 9 where parser.isText("timestamp", at: key):
                guard isString, let text = try parser.parseUnescapedString(),
                    let date = parser.withBytes(at: text, ISO8601Text.date(utf8:))
                else { throw otherEvent }
                event.timestamp = date
                hasTimestamp = true
            case 9 where parser.isText("sessionID", at: key):
                guard isString else { throw otherEvent }
                event.session = try hash(&parser)
            case 11 where parser.isText("anonymousID", at: key):
                guard isString else { throw otherEvent }
                event.anonymous = try hash(&parser)
            case 6 where parser.isText("userID", at: key):
                guard isString else { throw otherEvent }
                event.user = try hash(&parser)
            case 10 where parser.isText("properties", at: key):
                guard !hasProperties else { throw otherEvent }
                hasProperties = true
                if try parser.peek() == UInt8(ascii: "n") {
                    try parser.skipValue(depth: 1)
                } else {
                    guard try parser.peek() == UInt8(ascii: "{") else { throw otherEvent }
                    try properties(&parser, into: &event, products: &products, texts: &texts)
                }
            default:
                throw otherEvent
            }
            if try parser.consume(UInt8(ascii: ",")) { continue }
            try parser.expect(UInt8(ascii: "}"), "',' or '}' in an object")
            break
        }
        guard hasID, event.type != 0, hasTimestamp else { throw otherEvent }
        if event.type == StatisticsTexts.purchase { event.purchasedProducts = products.purchased }
        return event
    }

    /// An event whose members are in the order and form Actuate's batch writer gives them (`{"id":…,"type":…,
    /// "timestamp":…,"sessionID":…,"anonymousID":…[,"userID":…],"properties":…}` without whitespace), each member
    /// name matched as a whole rather than read and looked up; nil, with texts perhaps numbered, when the object is
    /// laid out otherwise.
    private static func writerLayoutEvent(
        _ parser: inout JSONBytesParser,
        texts: inout StatisticsTexts
    ) throws(JSONBytesParser.Failure) -> StatisticsEvent? {
        guard parser.consumeLiteral(#"{"id":""#) else { return nil }
        let id: UUID
        if let fixed = fixedLengthValue(&parser, length: 36, uuid(utf8:)) {
            id = fixed
        } else {
            parser.position -= 1
            guard let digits = try parser.parseUnescapedString(), !digits.isEmpty else { throw otherEvent }
            id = parser.withBytes(at: digits) { bytes in
                uuid(utf8: bytes) ?? derivedUUID(of: String(decoding: bytes, as: UTF8.self))
            }
        }
        guard parser.consumeLiteral(#","type":""#) else { return nil }
        parser.position -= 1
        let type = try text(&parser, &texts)
        guard parser.consumeLiteral(#","timestamp":""#) else { return nil }
        let timestamp: Date
        if let fixed = fixedLengthValue(&parser, length: 24, ISO8601Text.date(utf8:)) {
            timestamp = fixed
        } else {
            parser.position -= 1
            guard let time = try parser.parseUnescapedString(),
                let date = parser.withBytes(at: time, ISO8601Text.date(utf8:))
            else { throw otherEvent }
            timestamp = date
        }
        guard parser.consumeLiteral(#","sessionID":""#) else { return nil }
        parser.position -= 1
        let session = try hash(&parser)
        guard parser.consumeLiteral(#","anonymousID":""#) else { return nil }
        parser.position -= 1
        var event = StatisticsEvent(
            id: id,
            type: type,
            timestamp: timestamp,
            session: session,
            anonymous: try hash(&parser)
        )
        if parser.consumeLiteral(#","userID":""#) {
            parser.position -= 1
            event.user = try hash(&parser)
        }
        guard parser.consumeLiteral(#","properties":{"#) else { return nil }
        parser.position -= 1
        var products = ProductIDs()
        try properties(&parser, into: &event, products: &products, texts: &texts)
        guard parser.consumeLiteral("}") else { return nil }
        if event.type == StatisticsTexts.purchase { event.purchasedProducts = products.purchased }
        return event
    }

    /// The value `parse` reads from the `length` bytes after the position (just past a string's opening quote) when
    /// a quote closes the string right after them, the position then moved past that quote; else nil, the position
    /// unchanged. Only for a `parse` that accepts no quote, backslash or control character, so that the string is
    /// exactly those bytes: then it gives what parsing the string and its bytes would, without scanning for its end.
    /// (An id of Actuate's writers is 36 bytes, its time 24: `2026-01-01T00:00:00.000Z`.)
    @inline(__always)
    private static func fixedLengthValue<Value>(
        _ parser: inout JSONBytesParser,
        length: Int,
        _ parse: (UnsafeBufferPointer<UInt8>) -> Value?
    ) -> Value? {
        let start = parser.position
        guard start + length < parser.bytes.count, parser.bytes[start + length] == UInt8(ascii: "\""),
            let value = parser.withBytes(at: start..<start + length, parse)
        else { return nil }
        parser.position = start + length + 1
        return value
    }

    /// The product ids of an event's properties, as ``ReportEvent/purchasedProductIDs`` reads them.
    private struct ProductIDs {
        /// ``IDHash`` of the non-empty strings of the last `productIds` array.
        var list: [UInt64] = []
        /// ``IDHash`` of the last `productId`, 0 unless it is a non-empty string.
        var single: UInt64 = 0

        /// The list, then the single id, each once.
        var purchased: [UInt64] {
            var ids = list
            if single != 0 { ids.append(single) }
            var seen = Set<UInt64>()
            return ids.filter { seen.insert($0).inserted }
        }
    }

    /// Reads a properties object whose `{` is next into `event`.
    private static func properties(
        _ parser: inout JSONBytesParser,
        into event: inout StatisticsEvent,
        products: inout ProductIDs,
        texts: inout StatisticsTexts
    ) throws(JSONBytesParser.Failure) {
        parser.position += 1
        if try parser.consume(UInt8(ascii: "}")) { return }
        while true {
            guard try parser.peek() == UInt8(ascii: "\"") else { throw otherEvent }
            let key: StatisticsPropertyKey?
            if let name = parser.consumeShortASCIIString() {
                key = StatisticsPropertyKey(first: name.first, second: name.second, count: name.count)
            } else {
                guard let name = try parser.parseUnescapedString() else { throw otherEvent }
                key = parser.withBytes(at: name, StatisticsPropertyKey.init(utf8:))
            }
            try parser.expect(UInt8(ascii: ":"), "':' after a member name")
            switch key {
            case .contentSource:
                event.contentSource = try optionalText(&parser, &texts)
            case .actionID:
                event.contentID = try optionalText(&parser, &texts)
            case .actionName:
                event.contentName = try optionalText(&parser, &texts)
            case .productID:
                if try parser.peek() == UInt8(ascii: "\"") {
                    products.single = try nonEmptyHash(&parser)
                } else {
                    products.single = 0
                    try parser.skipValue(depth: 2)
                }
                event.productID = products.single
            case .productIDs:
                products.list = try productList(&parser)
            case .analyticsID:
                event.analyticsID = try optionalText(&parser, &texts)
            case .action:
                event.actionName = try optionalText(&parser, &texts)
            case .feature:
                event.feature = try optionalText(&parser, &texts)
            case .outcome:
                event.outcome = try optionalText(&parser, &texts)
            case .source:
                event.arrivalSource = try optionalText(&parser, &texts)
            case .durationSeconds:
                let byte = try parser.peek()
                if byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
                    event.durationSeconds = try parser.parseNumber()
                } else {
                    event.durationSeconds = nil
                    try parser.skipValue(depth: 2)
                }
            case .result:
                event.result = try optionalString(&parser)
            case .url:
                event.url = try optionalString(&parser)
            case .name:
                event.name = try optionalString(&parser)
            case nil:
                try parser.skipValue(depth: 2)
            }
            if try parser.consume(UInt8(ascii: ",")) { continue }
            try parser.expect(UInt8(ascii: "}"), "',' or '}' in an object")
            return
        }
    }

    /// The hashes of the non-empty strings of a `productIds` array, or none when the value is not an array.
    private static func productList(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> [UInt64] {
        guard try parser.peek() == UInt8(ascii: "[") else {
            try parser.skipValue(depth: 2)
            return []
        }
        parser.position += 1
        var list: [UInt64] = []
        if try parser.consume(UInt8(ascii: "]")) { return list }
        while true {
            if try parser.peek() == UInt8(ascii: "\"") {
                let hash = try nonEmptyHash(&parser)
                if hash != 0 { list.append(hash) }
            } else {
                try parser.skipValue(depth: 3)
            }
            if try parser.consume(UInt8(ascii: ",")) { continue }
            try parser.expect(UInt8(ascii: "]"), "',' or ']' in an array")
            return list
        }
    }

    /// The number of the string next, or 0 (the value skipped) when the value is not a string.
    private static func optionalText(
        _ parser: inout JSONBytesParser,
        _ texts: inout StatisticsTexts
    ) throws(JSONBytesParser.Failure) -> UInt32 {
        guard try parser.peek() == UInt8(ascii: "\"") else {
            try parser.skipValue(depth: 2)
            return 0
        }
        return try text(&parser, &texts)
    }

    /// The string next, or nil (the value skipped) when the value is not a string.
    private static func optionalString(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> String? {
        guard try parser.peek() == UInt8(ascii: "\"") else {
            try parser.skipValue(depth: 2)
            return nil
        }
        return try parser.parseString()
    }

    /// The number in `texts` of the string whose `"` is next.
    private static func text(
        _ parser: inout JSONBytesParser,
        _ texts: inout StatisticsTexts
    ) throws(JSONBytesParser.Failure) -> UInt32 {
        if let short = parser.consumeShortASCIIString() {
            let number = texts.recentNumber(first: short.first, second: short.second, count: short.count)
            if number != 0 { return number }
            let end = parser.position - 1
            let range = end - short.count..<end
            let hash = IDHash.ofShortASCII(first: short.first, second: short.second, count: short.count)
            let numbered = parser.withBytes(at: range) { bytes in texts.number(utf8: bytes, hash: hash) }
            texts.rememberRecent(numbered, first: short.first, second: short.second, count: short.count)
            return numbered
        }
        if let range = try parser.parseUnescapedString() {
            let short = parser.shortASCIIWords(at: range)
            if let short {
                let number = texts.recentNumber(first: short.first, second: short.second, count: range.count)
                if number != 0 { return number }
            }
            let (hash, isASCII) = parser.hashOfBytes(at: range)
            let number = parser.withBytes(at: range) { bytes in
                if isASCII { return texts.number(utf8: bytes, hash: hash) }
                return texts.number(of: String(decoding: bytes, as: UTF8.self))
            }
            if let short { texts.rememberRecent(number, first: short.first, second: short.second, count: range.count) }
            return number
        }
        return texts.number(of: try parser.parseString())
    }

    /// ``IDHash`` of the string whose `"` is next.
    private static func hash(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> UInt64 {
        if let short = parser.consumeShortASCIIString() {
            return IDHash.ofShortASCII(first: short.first, second: short.second, count: short.count)
        }
        if let range = try parser.parseUnescapedString() {
            let (hash, isASCII) = parser.hashOfBytes(at: range)
            if isASCII { return hash }
            return IDHash.of(parser.withBytes(at: range) { String(decoding: $0, as: UTF8.self) })
        }
        return IDHash.of(try parser.parseString())
    }

    /// ``IDHash`` of the string whose `"` is next, or 0 when it is empty.
    private static func nonEmptyHash(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> UInt64 {
        let start = parser.position
        let hash = try hash(&parser)
        return parser.position - start == 2 ? 0 : hash
    }

    private static let otherEvent = JSONBytesParser.Failure.invalid("not an event in Actuate's own shape")
    private static let emptyHash = IDHash.of("")
    private static let noID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
