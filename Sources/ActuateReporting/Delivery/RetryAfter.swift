import Foundation

/// Parses the HTTP `Retry-After` header.
///
/// The header holds either a number of seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`, and the
/// obsolete RFC 850 and asctime forms). Anything else is rejected rather than guessed at.
enum RetryAfter {
    /// The delay a `Retry-After` value asks for.
    ///
    /// - Parameters:
    ///   - value: The header value.
    ///   - now: The current time, to turn a date into a delay.
    /// - Returns: The delay, zero for a date in the past, or `nil` when the value is neither a non-negative
    ///   whole number of seconds nor an HTTP date.
    static func delay(from value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Range-checked before conversion: absurd values are capped, not overflowed (and leading zeros do not
            // count towards the cap); the retry policy caps them further.
            let digits = trimmed.drop { $0 == "0" }
            guard digits.count <= 12 else { return .seconds(maximumSeconds) }
            return .seconds(Int64(digits) ?? 0)
        }
        guard let date = httpDate(trimmed) else { return nil }
        let interval = date.timeIntervalSince(now)
        guard interval > 0 else { return .zero }
        // A date in the year 99999999999 is a valid HTTP date to the formatter: cap before converting.
        return .milliseconds(Int64((min(interval, Double(maximumSeconds)) * 1000).rounded(.up)))
    }

    /// The longest delay a value gives, in seconds (about 31,700 years): twelve digits.
    private static let maximumSeconds: Int64 = 999_999_999_999

    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",  // IMF-fixdate, RFC 9110
        "EEEE, dd-MMM-yy HH:mm:ss zzz",  // RFC 850
        "EEE MMM d HH:mm:ss yyyy",  // asctime
    ]

    /// The longest HTTP date: an RFC 850 date with the longest weekday, with room for extra spaces.
    private static let maximumDateLength = 40

    private static func httpDate(_ text: String) -> Date? {
        // An HTTP date is short printable ASCII. Anything else is refused before it reaches DateFormatter, which
        // on Linux traps on some non-ASCII input (found by the UploadResponse fuzz target: a Retry-After of
        // "Wed, 21" followed by Arabic letters and invalid UTF-8 crashed the uploader).
        guard text.utf8.count <= maximumDateLength,
            text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }
}
