import Foundation

/// Parses JSON values straight from UTF-8 bytes, as fast as collected files need: 300 bytes an event at a
/// million events a second.
///
/// It reads a window of a larger stream: reaching the end of the window in the middle of a value throws
/// ``Failure/truncated``, and the reader that owns the window reads more and parses the value again from its start.
/// Nesting deeper than ``maxDepth`` is an error, not a stack overflow.
struct JSONBytesParser {
    /// Why a value could not be parsed.
    enum Failure: Error, Equatable {
        /// The window ends inside the value.
        case truncated
        /// The bytes are not JSON; the reason names what was expected.
        case invalid(String)
    }

    /// The deepest nesting of arrays and objects accepted.
    static let maxDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var position: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Skips spaces, tabs, line ends and a UTF-8 byte order mark.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            case 0xEF where position + 2 < bytes.count && bytes[position + 1] == 0xBB && bytes[position + 2] == 0xBF:
                position += 3
            default: return
            }
        }
    }

    /// The next byte after whitespace, without consuming it.
    @inline(__always)
    mutating func peek() throws(Failure) -> UInt8 {
        // Compact JSON has no whitespace between tokens: a byte above the space that is not a byte order mark's first
        // is the answer, without the loop.
        if position < bytes.count {
            let byte = bytes[position]
            if byte > 0x20, byte != 0xEF { return byte }
        }
        skipWhitespace()
        guard position < bytes.count else { throw .truncated }
        return bytes[position]
    }

    /// Consumes `byte` after whitespace.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        guard try peek() == byte else { throw .invalid("expected \(what)") }
        position += 1
    }

    /// Consumes `byte` after whitespace when it is next.
    @inline(__always)
    mutating func consume(_ byte: UInt8) throws(Failure) -> Bool {
        guard try peek() == byte else { return false }
        position += 1
        return true
    }

    /// Parses any value.
    mutating func parseValue(depth: Int = 0) throws(Failure) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw .invalid("expected a value")
        }
    }

    /// Parses an object whose `{` is next.
    mutating func parseObject(depth: Int) throws(Failure) -> [String: JSONValue] {
        guard depth <= Self.maxDepth else { throw .invalid("nesting deeper than \(Self.maxDepth) levels") }
        try expect(UInt8(ascii: "{"), "{")
        if try consume(UInt8(ascii: "}")) { return [:] }
        // An event has seven members and a few properties: room for them without growing. (The initializer is
        // specialized here; `reserveCapacity` ran the standard library's generic code, a metadata lookup per object.)
        var members = [String: JSONValue](minimumCapacity: 8)
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw .invalid("expected a member name") }
            let key = try parseString()
            try expect(UInt8(ascii: ":"), "':' after a member name")
            members[key] = try parseValue(depth: depth)
            if try consume(UInt8(ascii: ",")) { continue }
            try expect(UInt8(ascii: "}"), "',' or '}' in an object")
            return members
        }
    }

    /// Parses an array whose `[` is next.
    mutating func parseArray(depth: Int) throws(Failure) -> [JSONValue] {
        guard depth <= Self.maxDepth else { throw .invalid("nesting deeper than \(Self.maxDepth) levels") }
        try expect(UInt8(ascii: "["), "[")
        var elements: [JSONValue] = []
        if try consume(UInt8(ascii: "]")) { return elements }
        while true {
            elements.append(try parseValue(depth: depth))
            if try consume(UInt8(ascii: ",")) { continue }
            try expect(UInt8(ascii: "]"), "',' or ']' in an array")
            return elements
        }
    }

    /// Parses a string whose `"` is next; invalid UTF-8 is repaired with U+FFFD.
    mutating func parseString() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""), "a string")
        let start = position
        position = stringStop(from: start)
        guard position < bytes.count else { throw .truncated }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            position += 1
            return text
        case UInt8(ascii: "\\"): return try parseEscapedString(from: start)
        default: throw .invalid("a control character inside a string")
        }
    }

    /// Consumes a string whose `"` is next and returns the offsets of its bytes between the quotes, when it holds no
    /// escape; with an escape it returns nil and leaves the position at the opening quote, for ``parseString()``.
    mutating func parseUnescapedString() throws(Failure) -> Range<Int>? {
        try expect(UInt8(ascii: "\""), "a string")
        let start = position
        position = stringStop(from: start)
        guard position < bytes.count else { throw .truncated }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            position += 1
            return start..<position - 1
        case UInt8(ascii: "\\"):
            position = start - 1
            return nil
        default: throw .invalid("a control character inside a string")
        }
    }

    /// A string of at most 15 bytes, all ASCII, without escapes, as ``consumeShortASCIIString()`` reads it.
    struct ShortASCII {
        /// Its first eight bytes as a little-endian word, zero past its end.
        var first: UInt64
        /// Its bytes after the eighth, the same way.
        var second: UInt64
        /// Its length in bytes.
        var count: Int
    }

    /// Consumes the string whose `"` is at the position when its closing quote comes within 15 bytes, with no
    /// backslash, control character or byte above 0x7F before it, and 16 bytes are in the window after the opening
    /// quote: the string's two words are loaded once and tested for its end, rather than scanned and then read. Else
    /// nil, the position unchanged, for ``parseUnescapedString()`` or ``parseString()``.
    @inline(__always)
    mutating func consumeShortASCIIString() -> ShortASCII? {
        let start = position + 1
        guard start + 16 <= bytes.count, let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        var first = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        var second = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self))
        let count: Int
        let firstStops = Self.stopFlags(first)
        if firstStops != 0 {
            count = firstStops.trailingZeroBitCount / 8
            first &= (1 << UInt64(8 * count)) &- 1
            second = 0
        } else {
            let secondStops = Self.stopFlags(second)
            guard secondStops != 0 else { return nil }
            count = 8 + secondStops.trailingZeroBitCount / 8
            second &= (1 << UInt64(8 * (count - 8))) &- 1
        }
        guard bytes[start + count] == UInt8(ascii: "\""), (first | second) & 0x8080_8080_8080_8080 == 0 else {
            return nil
        }
        position = start + count + 1
        return ShortASCII(first: first, second: second, count: count)
    }

    /// The high bit of each byte of `word` (little-endian) that may end a string's plain run, a quote, a backslash or
    /// a control character; the lowest flagged byte is exact (a flag above it may be a borrow's).
    @inline(__always)
    private static func stopFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let stops = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return stops & 0x8080_8080_8080_8080
    }

    /// The offset of the first byte at or after `start` that ends a string's plain run: a quote, a backslash or a
    /// control character; `bytes.count` when there is none. Eight bytes are tested at a time (the lowest flagged byte
    /// of each test is exact, so the lowest of the three is the first stop).
    private func stringStop(from start: Int) -> Int {
        var index = start
        let count = bytes.count
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while index + 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let flags = Self.stopFlags(word)
                if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            index += 1
        }
        return count
    }

    /// Whether the bytes at `range` are the UTF-8 of `text`.
    @inline(__always)
    func isText(_ text: StaticString, at range: Range<Int>) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        return memcmp(bytes.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
    }

    /// Consumes `text` when the bytes at the position are exactly its UTF-8, with no whitespace skipped.
    @inline(__always)
    mutating func consumeLiteral(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count, memcmp(bytes.baseAddress! + position, text.utf8Start, count) == 0 else {
            return false
        }
        position += count
        return true
    }

    /// ``IDHash`` of the bytes at `range`, and whether they are ASCII; their last word is read whole, and masked,
    /// when the window goes on far enough.
    func hashOfBytes(at range: Range<Int>) -> (hash: UInt64, isASCII: Bool) {
        IDHash.ofASCII(utf8: UnsafeBufferPointer(rebasing: bytes[range]), readable: bytes.count - range.lowerBound)
    }

    /// The bytes at `range` as two little-endian words, zero past its end, when it holds at most 16 bytes, all
    /// ASCII, and the window goes on 16 bytes from its start; else nil.
    func shortASCIIWords(at range: Range<Int>) -> (first: UInt64, second: UInt64)? {
        let count = range.count
        guard count <= 16, range.lowerBound + 16 <= bytes.count, let base = UnsafeRawPointer(bytes.baseAddress) else {
            return nil
        }
        var first = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
        var second = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: range.lowerBound + 8, as: UInt64.self))
        if count < 8 {
            first &= (1 << UInt64(8 * count)) &- 1
            second = 0
        } else if count < 16 {
            second &= (1 << UInt64(8 * (count - 8))) &- 1
        }
        guard (first | second) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return (first, second)
    }

    /// The bytes at `range`, lent to `body` for the length of the call.
    func withBytes<Result>(at range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The slow path of a string with escapes, from its first byte after the quote.
    private mutating func parseEscapedString(from start: Int) throws(Failure) -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw .truncated }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hexQuad()
                    if (0xD800..<0xDC00).contains(scalar), position + 1 < bytes.count,
                        bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                    {
                        let saved = position
                        position += 2
                        let low = try hexQuad()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            position = saved
                        }
                    }
                    utf8.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
                default: throw .invalid("an unknown escape in a string")
                }
            default:
                if byte < 0x20 { throw .invalid("a control character inside a string") }
                utf8.append(byte)
            }
        }
        throw .truncated
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw .truncated }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalid("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Parses a number. A number that reaches the end of the window may go on after it: truncated.
    ///
    /// An integer of up to 18 digits, and a decimal fraction of up to 15 significant digits without an exponent, are
    /// computed from their digits: the digits as an integer below 2⁵³ divided by a power of ten up to 10²², both
    /// exact in a `Double`, so the one rounding of the division gives the correctly rounded value, the same as
    /// `Double(text)` (Clinger's fast path). Any other number is parsed by `Double(text)`.
    mutating func parseNumber() throws(Failure) -> Double {
        let start = position
        var integer: Int64 = 0
        var simple = true
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var digits = 0
        var fractionDigits = -1
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if digits < 18 { integer = integer &* 10 &+ Int64(byte - UInt8(ascii: "0")) } else { simple = false }
                digits += 1
                if fractionDigits >= 0 { fractionDigits += 1 }
            case UInt8(ascii: "."):
                if fractionDigits >= 0 { simple = false }
                fractionDigits = 0
            case UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                simple = false
            default:
                guard digits > 0 else { throw .invalid("a number without digits") }
                if simple, fractionDigits < 0 { return Double(negative ? -integer : integer) }
                if simple, fractionDigits > 0, digits <= 15, fractionDigits < Self.powersOfTen.count {
                    let value = Double(integer) / Self.powersOfTen[fractionDigits]
                    return negative ? -value : value
                }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                guard let value = Double(text) else { throw .invalid("a malformed number") }
                return value
            }
            position += 1
        }
        throw .truncated
    }

    /// 10⁰ to 10²², each exact in a `Double`.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Skips any value without building it; what it cannot skip cheaply (a string with an escape, a number) it
    /// parses, so that it accepts and rejects the same bytes as ``parseValue(depth:)``.
    mutating func skipValue(depth: Int = 0) throws(Failure) {
        switch try peek() {
        case UInt8(ascii: "\""):
            if try parseUnescapedString() == nil { _ = try parseString() }
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw .invalid("nesting deeper than \(Self.maxDepth) levels") }
            position += 1
            if try consume(UInt8(ascii: "}")) { return }
            while true {
                guard try peek() == UInt8(ascii: "\"") else { throw .invalid("expected a member name") }
                try skipValue(depth: depth + 1)
                try expect(UInt8(ascii: ":"), "':' after a member name")
                try skipValue(depth: depth + 1)
                if try consume(UInt8(ascii: ",")) { continue }
                try expect(UInt8(ascii: "}"), "',' or '}' in an object")
                return
            }
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw .invalid("nesting deeper than \(Self.maxDepth) levels") }
            position += 1
            if try consume(UInt8(ascii: "]")) { return }
            while true {
                try skipValue(depth: depth + 1)
                if try consume(UInt8(ascii: ",")) { continue }
                try expect(UInt8(ascii: "]"), "',' or ']' in an array")
                return
            }
        default:
            _ = try parseValue(depth: depth)
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw .truncated }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
            throw .invalid("expected \(word)")
        }
        position += count
    }
}
