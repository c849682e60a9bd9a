/// The one number policy of every JSON document the module reads from outside: rules files, and decision,
/// campaign and content-block responses.
///
/// A number is range-checked while it is still a `Double`, before anything converts it, so that no value in a
/// document (`1e300`, `2^63`, `-1`, `0.5`) can trap a conversion: it is either taken, in range, or refused with
/// a problem that names its path and the range allowed.
///
/// - Whole numbers (ids, `priority`, `version`, `minCount`, `sessionCount`) must have no fractional part and lie
///   within ±(2^53 − 1), the whole numbers a JSON number holds exactly; each field may narrow that range
///   further. `-0` reads as 0.
/// - Durations in seconds (`ttlSeconds`) must lie in ``secondsRange``, and are kept to the millisecond.
/// - Percentages (a campaign's `controlGroupPercent`) must be finite and lie in ``percentRange``.
enum JSONNumberPolicy {
    /// The largest whole number a JSON number (an IEEE double) holds exactly: 2^53 − 1.
    static let largestWholeNumber = 9_007_199_254_740_991

    /// The whole numbers a document may hold: ±(2^53 − 1).
    static let wholeNumbers: ClosedRange<Int> = -largestWholeNumber...largestWholeNumber

    /// The durations a document may give in seconds: from one millisecond to 365 days.
    static let secondsRange: ClosedRange<Double> = 0.001...31_536_000

    /// The percentages a document may give: 0 to 100, fractions allowed.
    static let percentRange: ClosedRange<Double> = 0...100

    /// `number` as a percentage, when it is finite and lies in ``percentRange``.
    ///
    /// - Parameter number: A number read from a document.
    /// - Returns: The percentage (`-0` reads as 0), or nil when `number` is not finite or out of range.
    static func percent(_ number: Double) -> Double? {
        guard number.isFinite, percentRange.contains(number) else { return nil }
        return number == 0 ? 0 : number
    }

    /// What a problem says of `number` when ``percent(_:)`` refuses it: `expected a number from 0 to 100, found
    /// 150`.
    static func percentProblem(found number: Double) -> String {
        "expected a number from 0 to 100, found \(describe(number))"
    }

    /// `number` as an `Int`, when it is whole and lies in `range` (narrowed to ``wholeNumbers``).
    ///
    /// - Parameters:
    ///   - number: A number read from a document.
    ///   - range: The values the field allows.
    /// - Returns: The whole number, or nil when `number` is fractional, not finite or out of range.
    static func wholeNumber(_ number: Double, in range: ClosedRange<Int> = wholeNumbers) -> Int? {
        let allowed = range.clamped(to: wholeNumbers)
        // Every bound lies within ±2^53, so both comparisons are exact and the conversion below cannot trap.
        guard number.isFinite, number == number.rounded(.towardZero),
            number >= Double(allowed.lowerBound), number <= Double(allowed.upperBound)
        else { return nil }
        return Int(number)
    }

    /// A number of seconds as a duration, when it lies in ``secondsRange``.
    ///
    /// - Parameter seconds: A number read from a document.
    /// - Returns: The duration, rounded to the millisecond, or nil when `seconds` is out of range.
    static func duration(seconds: Double) -> Duration? {
        guard seconds.isFinite, secondsRange.contains(seconds) else { return nil }
        // At most 31,536,000,000 milliseconds: far inside Int64.
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// What a problem says of `number` when ``wholeNumber(_:in:)`` refuses it: `expected a whole number, found
    /// 7.5`, `expected a whole number of at least 1, found 0`, or, for a number out of range, the range itself,
    /// as in `expected a whole number from -9007199254740991 to 9007199254740991, found 1e+300`.
    static func wholeNumberProblem(found number: Double, in range: ClosedRange<Int> = wholeNumbers) -> String {
        let allowed = range.clamped(to: wholeNumbers)
        let inRange = number >= Double(allowed.lowerBound) && number <= Double(allowed.upperBound)
        let bounds =
            if inRange && allowed == wholeNumbers {
                ""
            } else if allowed.upperBound == largestWholeNumber && allowed.lowerBound != -largestWholeNumber {
                " of at least \(allowed.lowerBound)"
            } else {
                " from \(allowed.lowerBound) to \(allowed.upperBound)"
            }
        return "expected a whole number\(bounds), found \(describe(number))"
    }

    /// How a problem quotes a number it found: whole numbers in full, `-0`, `0.5` and `1e+300` as written.
    static func describe(_ number: Double) -> String {
        if number == 0 { return number.sign == .minus ? "-0" : "0" }
        if number == number.rounded(), abs(number) < 1e17 { return String(Int64(number)) }
        return "\(number)"
    }
}
