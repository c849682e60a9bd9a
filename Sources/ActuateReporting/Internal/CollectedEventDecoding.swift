import Foundation

/// Turns one event object, as a collector or a warehouse holds it, back into a ``ReportEvent``.
///
/// Three shapes are read, told apart by their id's key:
/// - Actuate's own (`id`, `type`, `timestamp`, `sessionID`, `anonymousID`, `userID`, `properties`), as
///   ``EventBatchEncoding/actuate`` sends it;
/// - a Segment message (`messageId`; `track` with `event`, or `identify` with `traits`; `anonymousId`, `userId`,
///   `timestamp`, `properties`, `context.sessionId`), as ``EventBatchEncoding/segment`` sends it; a message of another
///   type (`page`, `screen`, …) keeps that type;
/// - a row of the flat table (`event_id`, …; see ``FlatEventRow``), as `actuate export` writes it.
///
/// An id that is not a UUID (another library's `messageId`) becomes the UUID made from its text's hash, so its
/// copies still share one id.
package enum CollectedEventDecoding {
    /// Why an object is not an event.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    /// Decodes an event object.
    /// - Parameter object: The object's members.
    /// - Returns: The event.
    /// - Throws: ``Problem`` when a required member is missing or of the wrong type.
    package static func event(from object: [String: JSONValue]) throws(Problem) -> ReportEvent {
        if let messageID = object["messageId"] {
            return try segmentMessage(object, messageID: messageID)
        }
        if let rowID = object[FlatEventRow.Column.eventID.rawValue] {
            return try flatRow(object, id: rowID)
        }
        guard let id = object["id"] else {
            throw Problem(description: "an event needs an \"id\", a \"messageId\" or an \"event_id\"")
        }
        return ReportEvent(
            id: try identifier(id, "id"),
            type: try string(object["type"], "type"),
            timestamp: try date(object["timestamp"], "timestamp"),
            sessionID: object["sessionID"]?.stringValue ?? "",
            anonymousID: object["anonymousID"]?.stringValue ?? "",
            userID: object["userID"]?.stringValue,
            properties: try properties(object["properties"], "properties")
        )
    }

    private static func segmentMessage(
        _ object: [String: JSONValue],
        messageID: JSONValue
    ) throws(Problem) -> ReportEvent {
        let kind = try string(object["type"], "type")
        let type: String
        let propertiesKey: String
        switch kind {
        case "track":
            type = try string(object["event"], "event")
            propertiesKey = "properties"
        case "identify":
            type = ReportEventType.identify.rawValue
            propertiesKey = "traits"
        default:
            type = kind
            propertiesKey = "properties"
        }
        var sessionID = ""
        if case .object(let context) = object["context"], let session = context["sessionId"]?.stringValue {
            sessionID = session
        }
        return ReportEvent(
            id: try identifier(messageID, "messageId"),
            type: type,
            timestamp: try date(object["timestamp"], "timestamp"),
            sessionID: sessionID,
            anonymousID: object["anonymousId"]?.stringValue ?? "",
            userID: object["userId"]?.stringValue,
            properties: try properties(object[propertiesKey], propertiesKey)
        )
    }

    private static func flatRow(_ object: [String: JSONValue], id: JSONValue) throws(Problem) -> ReportEvent {
        typealias Column = FlatEventRow.Column
        var properties: [String: JSONValue] = [:]
        switch object[Column.properties.rawValue] {
        case .string(let text)?:
            guard case .object(let members) = try parse(text) else {
                throw Problem(description: "\"properties\" must hold a JSON object")
            }
            properties = members
        case .object(let members)?: properties = members
        case .null?, nil: break
        default: throw Problem(description: "\"properties\" must be a string of JSON or an object")
        }
        for (column, key) in FlatEventRow.movedProperties {
            if let value = object[column.rawValue]?.stringValue { properties[key] = .string(value) }
        }
        return ReportEvent(
            id: try identifier(id, Column.eventID.rawValue),
            type: try string(object[Column.eventType.rawValue], Column.eventType.rawValue),
            timestamp: try date(object[Column.eventTime.rawValue], Column.eventTime.rawValue),
            sessionID: object[Column.sessionID.rawValue]?.stringValue ?? "",
            anonymousID: object[Column.anonymousID.rawValue]?.stringValue ?? "",
            userID: object[Column.userID.rawValue]?.stringValue,
            properties: properties
        )
    }

    private static func parse(_ text: String) throws(Problem) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONBytesParser.Failure> = text.withUTF8 { bytes in
            var parser = JSONBytesParser(bytes)
            do throws(JSONBytesParser.Failure) {
                let value = try parser.parseValue()
                parser.skipWhitespace()
                guard parser.position == bytes.count else { throw .invalid("text after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let failure): throw Problem(description: "\"properties\" is not JSON (\(failure))")
        }
    }

    private static func string(_ value: JSONValue?, _ key: String) throws(Problem) -> String {
        guard let text = value?.stringValue else { throw Problem(description: "\"\(key)\" must be a string") }
        return text
    }

    private static func properties(_ value: JSONValue?, _ key: String) throws(Problem) -> [String: JSONValue] {
        switch value {
        case .object(let members)?: return members
        case .null?, nil: return [:]
        default: throw Problem(description: "\"\(key)\" must be an object")
        }
    }

    private static func identifier(_ value: JSONValue, _ key: String) throws(Problem) -> UUID {
        guard let text = value.stringValue, !text.isEmpty else {
            throw Problem(description: "\"\(key)\" must be a non-empty string")
        }
        return uuid(parsing: text) ?? derivedUUID(of: text)
    }

    private static func date(_ value: JSONValue?, _ key: String) throws(Problem) -> Date {
        switch value {
        case .string(let text)?:
            if let date = ISO8601Text.date(from: text) { return date }
            throw Problem(description: "\"\(key)\" is not an ISO 8601 date: \(text.prefix(40))")
        case .number(let seconds)?:
            return Date(timeIntervalSince1970: seconds)
        default:
            throw Problem(description: "\"\(key)\" must be an ISO 8601 date")
        }
    }

    /// Parses the 36-character form, in either case, without Foundation's parser.
    static func uuid(parsing text: String) -> UUID? {
        var text = text
        return text.withUTF8 { uuid(utf8: $0) }
    }

    /// Parses the 36-character form, in either case, from its UTF-8 bytes: its 32 digits as four words of eight,
    /// each checked and converted with word arithmetic (``hexDigits(_:isValid:)``).
    static func uuid(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"),
            bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-"),
            let base = UnsafeRawPointer(bytes.baseAddress)
        else { return nil }
        func eight(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func four(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        var isValid = true
        let words = (
            hexDigits(eight(0), isValid: &isValid),
            hexDigits(four(9) | four(14) << 32, isValid: &isValid),
            hexDigits(four(19) | four(24) << 32, isValid: &isValid),
            hexDigits(eight(28), isValid: &isValid)
        )
        guard isValid else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in
            raw.storeBytes(of: words.0.littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: words.1.littleEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: words.2.littleEndian, toByteOffset: 8, as: UInt32.self)
            raw.storeBytes(of: words.3.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        return UUID(uuid: value)
    }

    /// The four bytes written by eight hexadecimal digits, the first digit in the word's lowest byte, as a word
    /// whose lowest byte is the first; sets `isValid` to false when a byte is not a digit of either case.
    @inline(__always)
    private static func hexDigits(_ word: UInt64, isValid: inout Bool) -> UInt32 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // With every byte below 0x80, adding (0x80 - n) sets a byte's high bit exactly when it is at least n, and
        // never carries into the next byte.
        let lowered = word | (ones &* 0x20)
        let isDecimal = (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x80 - 0x3A))
        let isLetter = (lowered &+ ones &* (0x80 - 0x61)) & ~(lowered &+ ones &* (0x80 - 0x67))
        isValid = isValid && word & high == 0 && (isDecimal | isLetter) & high == high
        // '0'…'9' are 0x30…0x39 and the letters 0x41…0x46 or 0x61…0x66: the low nibble, plus 9 for a letter.
        let nibbles = (word & (ones &* 0x0F)) &+ ((word >> 6) & ones) &* 9
        let pairs = ((nibbles & 0x000F_000F_000F_000F) << 4) | ((nibbles >> 8) & 0x000F_000F_000F_000F)
        let packed =
            (pairs & 0xFF) | ((pairs >> 8) & 0xFF00) | ((pairs >> 16) & 0xFF_0000) | ((pairs >> 24) & 0xFF00_0000)
        return UInt32(truncatingIfNeeded: packed)
    }

    /// A UUID made from two 64-bit FNV-1a hashes of the text, for ids that are not UUIDs.
    static func derivedUUID(of text: String) -> UUID {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325
        var second: UInt64 = 0x6C62_272E_07BB_0142
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 0x9E37
        }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in
            raw.storeBytes(of: first.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: second.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: value)
    }
}

/// Reads ISO 8601 dates as the batch writers and warehouses write them, without a formatter: `2026-11-25T10:00:00Z`,
/// with up to nine fraction digits, and `Z` or an offset such as `+01:00`.
enum ISO8601Text {
    /// The date, or nil when the text is not of that form.
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: $0) }
    }

    /// The date written in `bytes` (UTF-8), or nil when they are not of that form.
    static func date(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        // The fixed part's fourteen digits, each checked, without a call per field.
        var isDigits = true
        func digit(_ index: Int) -> Int {
            let value = bytes[index] &- UInt8(ascii: "0")
            isDigits = isDigits && value < 10
            return Int(value)
        }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6)
        let day = digit(8) * 10 + digit(9)
        let hour = digit(11) * 10 + digit(12)
        let minute = digit(14) * 10 + digit(15)
        let second = digit(17) * 10 + digit(18)
        guard isDigits, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, let digit = number(index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard index + 6 == bytes.count, let hours = number(index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
                let minutes = number(index + 4, 2)
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
        // Milliseconds are kept exactly as the writers wrote them: whole microseconds, then added.
        return Date(timeIntervalSince1970: seconds + (fraction * 1_000_000).rounded() / 1_000_000)
    }

    /// Howard Hinnant's `days_from_civil`.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
