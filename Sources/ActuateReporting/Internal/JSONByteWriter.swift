import Foundation

/// Writes JSON values directly as UTF-8 bytes: the primitives shared by the batch writers.
///
/// Strings are escaped as JSON requires, whole numbers within ±2^53 are written without a fraction, non-finite
/// numbers (which JSON cannot hold) become the strings `"NaN"`, `"Infinity"` and `"-Infinity"`, and dates are
/// ISO 8601 strings in UTC with milliseconds.
struct JSONByteWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    /// Creates an empty writer.
    /// - Parameter capacity: The bytes to reserve room for.
    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes any JSON value.
    mutating func writeValue(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): writeNumber(number)
        case .string(let text): writeString(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeValue(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            writeObject(members)
        }
    }

    /// Writes an object, its members in the dictionary's order.
    mutating func writeObject(_ members: [String: JSONValue]) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in members {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
            writeValue(value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Whole numbers within ±2^53 are written without a fraction; others use Swift's shortest round-trip form,
    /// which is valid JSON. Non-finite numbers, which JSON cannot hold, become strings.
    mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            writeString(number.isNaN ? "NaN" : (number > 0 ? "Infinity" : "-Infinity"))
            return
        }
        if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 {
            writeInteger(Int64(number))
        } else {
            append(number.description)
        }
    }

    /// Writes a string with the escapes JSON requires.
    ///
    /// Runs of bytes that need no escape are copied whole from the string's contiguous UTF-8, so an ordinary
    /// string costs one scan and one copy rather than one append per byte.
    mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        // Native strings are already contiguous UTF-8, so this copies nothing.
        text.withUTF8 { writeEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `utf8` with `"`, `\` and the control characters escaped.
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            writeEscape(byte)
            runStart = index + 1
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// Appends the escape of one byte that JSON does not allow raw in a string.
    private mutating func writeEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            append("\\u00")
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// Writes the decimal digits of `value`, as `String(value)` spells them, without making the string.
    private mutating func writeInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var remaining = value.magnitude
        var divisor: UInt64 = 1
        while remaining / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }

    /// Writes `id` as `UUID.uuidString` spells it (upper-case hex, `8-4-4-4-12`), without quotes and without
    /// making the string.
    mutating func writeUUIDDigits(_ id: UUID) {
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.upperHexDigits[Int(byte >> 4)])
                bytes.append(Self.upperHexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Writes `"YYYY-MM-DDTHH:MM:SS.mmmZ"` in UTC, for years 0001 to 9999 (others are clamped).
    mutating func writeDate(_ date: Date) {
        let interval = date.timeIntervalSince1970
        let safe = interval.isFinite ? min(max(interval, -62_135_596_800), 253_402_300_799.999) : 0
        // Round to whole microseconds first, so that -0.001 s is not read as -1.0000000000000002 ms.
        let (milliseconds, _) = Self.floorDivide(Int64((safe * 1_000_000).rounded()), 1000)
        let (days, dayMilliseconds) = Self.floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        bytes.append(UInt8(ascii: "\""))
        writeDigits(year, count: 4)
        bytes.append(UInt8(ascii: "-"))
        writeDigits(month, count: 2)
        bytes.append(UInt8(ascii: "-"))
        writeDigits(day, count: 2)
        bytes.append(UInt8(ascii: "T"))
        writeDigits(dayMilliseconds / 3_600_000, count: 2)
        bytes.append(UInt8(ascii: ":"))
        writeDigits(dayMilliseconds / 60_000 % 60, count: 2)
        bytes.append(UInt8(ascii: ":"))
        writeDigits(dayMilliseconds / 1000 % 60, count: 2)
        bytes.append(UInt8(ascii: "."))
        writeDigits(dayMilliseconds % 1000, count: 3)
        append("Z\"")
    }

    private mutating func writeDigits(_ value: Int64, count: Int) {
        var divisor: Int64 = 1
        for _ in 1..<count { divisor *= 10 }
        var remaining = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(remaining / divisor % 10))
            remaining %= divisor
            divisor /= 10
        }
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
