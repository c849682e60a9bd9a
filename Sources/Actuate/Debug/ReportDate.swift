import Foundation

/// The one date format of debug report format 1: ISO 8601 in UTC with exactly six fractional digits, such as
/// `2026-11-23T10:15:01.000123Z`.
///
/// Written by hand from the civil-calendar arithmetic, so that it is exact to the microsecond and the same
/// on every platform.
public enum ReportDate {
    private static let microsecondsPerSecond: Int64 = 1_000_000
    private static let secondsPerDay: Int64 = 86_400

    /// `date` rounded to the nearest microsecond, the precision the format keeps.
    public static func rounded(_ date: Date) -> Date {
        Self.date(microseconds: microseconds(of: date))
    }

    /// `date` to the millisecond, as every dump shows a time: ISO 8601 in UTC with three fractional digits, such
    /// as `2026-11-23T10:15:01.250Z` (the microseconds are cut, not rounded, so the text never runs ahead).
    ///
    /// - Parameter date: The date.
    /// - Returns: The text.
    public static func millisecondString(from date: Date) -> String {
        let text = string(from: date)
        return String(text.dropLast(4)) + "Z"
    }

    /// `date` in the format.
    static func string(from date: Date) -> String {
        let micros = microseconds(of: date)
        let seconds = floorDivision(micros, microsecondsPerSecond)
        let fraction = micros - seconds * microsecondsPerSecond
        let days = floorDivision(seconds, secondsPerDay)
        let secondOfDay = seconds - days * secondsPerDay
        let (year, month, day) = civilDate(fromDays: days)
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
            + padded(secondOfDay / 3_600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
            + padded(secondOfDay % 60, 2) + "." + padded(fraction, 6) + "Z"
    }

    /// The date a string in the format stands for, or nil when it is not one.
    ///
    /// Also accepts fewer or more fractional digits (or none) and a `+hh:mm` or `-hh:mm` offset instead of
    /// `Z`, so that dates edited by hand still read.
    package static func date(from text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), scanner.skip("T"),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2)
        else { return nil }
        var micros: Int64 = 0
        if scanner.skip(".") {
            guard let fraction = scanner.fractionMicroseconds() else { return nil }
            micros = fraction
        }
        var offsetSeconds: Int64 = 0
        if scanner.skip("Z") {
            offsetSeconds = 0
        } else if let sign = scanner.sign() {
            guard let offsetHours = scanner.number(digits: 2), scanner.skip(":"),
                let offsetMinutes = scanner.number(digits: 2), offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3_600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = days(fromCivilYear: year, month: month, day: day)
        let seconds = days * secondsPerDay + hour * 3_600 + minute * 60 + second - offsetSeconds
        return date(microseconds: seconds * microsecondsPerSecond + micros)
    }

    private static func microseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1e6).rounded())
    }

    private static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1e6)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func days(fromCivilYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivision(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01.
    private static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivision(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads the fixed-width fields of a date string.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + digits] {
            guard let digit = Self.digit(byte) else { return nil }
            value = value * 10 + digit
        }
        index += digits
        return value
    }

    /// One or more fractional digits as microseconds, rounded to the nearest.
    mutating func fractionMicroseconds() -> Int64? {
        var micros: Int64 = 0
        var count = 0
        var roundUp = false
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            if count < 6 {
                micros = micros * 10 + digit
            } else if count == 6 {
                roundUp = digit >= 5
            }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 6) { micros *= 10 }
        return micros + (roundUp ? 1 : 0)
    }

    private static func digit(_ byte: UInt8) -> Int64? {
        (48...57).contains(byte) ? Int64(byte - 48) : nil
    }
}
