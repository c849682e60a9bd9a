/// A URL route pattern, compiled once when its feature is registered with a ``URLRouter``.
///
/// A pattern is a `/`-separated list of segments:
/// - a literal, such as `product`, matches that exact (percent-decoded) segment;
/// - `$(name)` matches one whole segment and captures it as the parameter `name`;
/// - a literal with one parameter inside it, such as `item-$(sku)` or `$(id).json`, matches a segment with
///   that prefix and suffix and captures the non-empty text between them;
/// - `*` matches exactly one segment, whatever it is;
/// - `**` matches any number of segments, zero included. A pattern holds at most one `**`.
///
/// When several patterns match a URL, the most specific wins. Patterns are compared segment by segment, from
/// the first: a literal beats a partial parameter (`item-$(sku)`), which beats a parameter, which beats `*`,
/// which beats the end of the pattern, which beats `**`. The first segment that differs decides; when none
/// does, the route registered first wins.
package struct RoutePattern: Sendable, CustomStringConvertible {
    /// One compiled segment.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(name: String, prefix: String, suffix: String)
        case anySegment
        case anySegments

        /// The segment's rank in the specificity order; higher is more specific.
        var rank: Int {
            switch self {
            case .literal: 5
            case .parameter(_, let prefix, let suffix): prefix.isEmpty && suffix.isEmpty ? 3 : 4
            case .anySegment: 2
            case .anySegments: 0
            }
        }

        /// The rank of a pattern that has ended, compared with a longer one's segment.
        static let endRank = 1
    }

    /// The pattern as written.
    let text: String
    /// The compiled segments.
    let segments: [Segment]
    /// The parameter names, in the order they appear.
    let parameterNames: [String]

    private let doubleStarIndex: Int?

    /// Compiles `text`.
    ///
    /// - Throws: `RoutePatternError` when the pattern is empty or malformed.
    package init(_ text: String) throws(RoutePatternError) {
        self.text = text
        var trimmed = Substring(text)
        while trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        while trimmed.last == "/" { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { throw .empty }
        var segments: [Segment] = []
        var names: [String] = []
        for (index, raw) in trimmed.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            let segment = try Self.compile(String(raw), at: index)
            if case .parameter(let name, _, _) = segment {
                guard !names.contains(name) else { throw .duplicateParameter(name: name) }
                names.append(name)
            }
            segments.append(segment)
        }
        let doubleStars = segments.indices.filter { segments[$0] == .anySegments }
        guard doubleStars.count <= 1 else { throw .multipleDoubleStars }
        self.segments = segments
        self.parameterNames = names
        self.doubleStarIndex = doubleStars.first
    }

    package var description: String { text }

    /// The rank of each segment, for comparing specificity.
    var ranks: [Int] { segments.map(\.rank) }

    /// Matches percent-decoded path segments.
    ///
    /// - Returns: The captured parameters, or nil when the pattern does not match.
    package func match(_ path: [String]) -> [String: String]? {
        var captured: [String: String] = [:]
        guard let doubleStar = doubleStarIndex else {
            guard path.count == segments.count else { return nil }
            for (segment, value) in zip(segments, path) {
                guard Self.match(segment, value, into: &captured) else { return nil }
            }
            return captured
        }
        let head = segments[..<doubleStar]
        let tail = segments[(doubleStar + 1)...]
        guard path.count >= head.count + tail.count else { return nil }
        for (segment, value) in zip(head, path.prefix(head.count)) {
            guard Self.match(segment, value, into: &captured) else { return nil }
        }
        for (segment, value) in zip(tail, path.suffix(tail.count)) {
            guard Self.match(segment, value, into: &captured) else { return nil }
        }
        return captured
    }

    /// Whether `self` is strictly more specific than `other`, by the order in the type's documentation.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        let mine = ranks
        let theirs = other.ranks
        for index in 0..<max(mine.count, theirs.count) {
            let left = index < mine.count ? mine[index] : Segment.endRank
            let right = index < theirs.count ? theirs[index] : Segment.endRank
            if left != right { return left > right }
        }
        return false
    }

    private static func match(_ segment: Segment, _ value: String, into captured: inout [String: String]) -> Bool {
        switch segment {
        case .literal(let literal):
            return literal == value
        case .parameter(let name, let prefix, let suffix):
            guard value.count > prefix.count + suffix.count, value.hasPrefix(prefix), value.hasSuffix(suffix) else {
                return false
            }
            captured[name] = String(value.dropFirst(prefix.count).dropLast(suffix.count))
            return true
        case .anySegment:
            return !value.isEmpty
        case .anySegments:
            return true
        }
    }

    private static func compile(_ raw: String, at index: Int) throws(RoutePatternError) -> Segment {
        if raw.isEmpty { throw .emptySegment(index: index) }
        if raw == "*" { return .anySegment }
        if raw == "**" { return .anySegments }
        if raw.contains("*") { throw .wildcardInsideSegment(segment: raw) }
        guard let dollar = raw.firstIndex(of: "$") else { return .literal(raw) }
        let afterDollar = raw.index(after: dollar)
        guard afterDollar < raw.endIndex, raw[afterDollar] == "(",
            let close = raw[afterDollar...].firstIndex(of: ")")
        else { throw .malformedParameter(segment: raw) }
        let name = String(raw[raw.index(after: afterDollar)..<close])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw .invalidParameterName(segment: raw)
        }
        let prefix = String(raw[..<dollar])
        let suffix = String(raw[raw.index(after: close)...])
        if suffix.contains("$") || suffix.contains("(") || suffix.contains(")") || prefix.contains("(")
            || prefix.contains(")")
        {
            throw .multipleParametersInSegment(segment: raw)
        }
        return .parameter(name: name, prefix: prefix, suffix: suffix)
    }
}

/// Why a URL route pattern could not be compiled.
package enum RoutePatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern has no segments.
    case empty
    /// Two slashes with nothing between them, at the given segment index.
    case emptySegment(index: Int)
    /// A `*` inside a segment; wildcards must be whole segments.
    case wildcardInsideSegment(segment: String)
    /// A `$` not followed by `(name)`.
    case malformedParameter(segment: String)
    /// A parameter name that is empty or holds characters other than letters, digits and `_`.
    case invalidParameterName(segment: String)
    /// More than one parameter, or stray parentheses, in one segment.
    case multipleParametersInSegment(segment: String)
    /// The same parameter name used twice.
    case duplicateParameter(name: String)
    /// More than one `**` in one pattern.
    case multipleDoubleStars

    package var description: String {
        switch self {
        case .empty: "The pattern is empty."
        case .emptySegment(let index): "Segment \(index) is empty (two slashes in a row)."
        case .wildcardInsideSegment(let segment):
            "'\(segment)' has a '*' inside it; '*' and '**' must be whole segments."
        case .malformedParameter(let segment): "'\(segment)' has a '$' that is not followed by '(name)'."
        case .invalidParameterName(let segment):
            "'\(segment)' has a parameter name that is empty or not made of letters, digits and '_'."
        case .multipleParametersInSegment(let segment):
            "'\(segment)' holds more than one parameter; a segment may hold at most one."
        case .duplicateParameter(let name): "The parameter '\(name)' appears twice."
        case .multipleDoubleStars: "The pattern has more than one '**'."
        }
    }
}
