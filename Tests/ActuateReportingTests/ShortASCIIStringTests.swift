import Foundation
import Testing

@testable import ActuateReporting

@Suite("Short strings read as two words: the same bytes, hashes and property names as the general scan")
struct ShortASCIIStringTests {
    /// Reads the string at the start of `json` (its opening quote first) both ways.
    private static func read(_ json: String) -> (short: JSONBytesParser.ShortASCII?, position: Int, plain: Range<Int>?)
    {
        Array(json.utf8).withUnsafeBufferPointer { bytes in
            var parser = JSONBytesParser(bytes)
            let short = parser.consumeShortASCIIString()
            let position = parser.position
            var general = JSONBytesParser(bytes)
            let plain = try? general.parseUnescapedString()
            return (short, position, plain ?? nil)
        }
    }

    @Test("every length up to 20, ended by a quote, a backslash, a control or a non-ASCII byte, with room or not")
    func lengths() {
        for length in 0...20 {
            let body = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            for ending in [#"""#, #"\n""#, "\u{01}\"", "é\""] {
                for padding in [0, 16] {
                    let json = "\"" + body + ending + String(repeating: " ", count: padding)
                    let (short, position, plain) = Self.read(json)
                    let fits = length <= 15 && ending == #"""# && 1 + 16 <= json.utf8.count
                    guard fits else {
                        #expect(short == nil, "\(json.debugDescription)")
                        #expect(position == 0)
                        continue
                    }
                    guard let short, let plain else {
                        Issue.record("\(json.debugDescription) was not read")
                        continue
                    }
                    #expect(short.count == length)
                    #expect(position == plain.upperBound + 1)
                    let bytes = Array(body.utf8) + Array(repeating: 0, count: 16 - length)
                    let words = bytes.withUnsafeBytes { raw in
                        (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                    }
                    #expect(short.first == UInt64(littleEndian: words.0))
                    #expect(short.second == UInt64(littleEndian: words.1))
                    let hash = Array(body.utf8).withUnsafeBufferPointer { IDHash.of(utf8: $0) }
                    #expect(IDHash.ofShortASCII(first: short.first, second: short.second, count: length) == hash)
                    #expect(hash == IDHash.of(body))
                }
            }
        }
    }

    @Test("the properties the statistics read are known by their words, and names that differ by a byte are not")
    func propertyKeys() {
        for key in StatisticsPropertyKey.allCases {
            let json = "\"" + key.text + "\"" + String(repeating: " ", count: 16)
            let (short, _, _) = Self.read(json)
            guard let short else {
                Issue.record("\(key.text) was not read")
                continue
            }
            #expect(StatisticsPropertyKey(first: short.first, second: short.second, count: short.count) == key)
            #expect(Array(key.text.utf8).withUnsafeBufferPointer { StatisticsPropertyKey(utf8: $0) } == key)
            for other in [
                key.text + "s", String(key.text.dropLast()), key.text.uppercased(), "x" + key.text.dropFirst(),
            ] {
                let found = Array(other.utf8).withUnsafeBufferPointer { StatisticsPropertyKey(utf8: $0) }
                #expect(found == nil || found?.text == other, "\(other)")
            }
        }
        #expect(Array("durationSecondsX".utf8).withUnsafeBufferPointer { StatisticsPropertyKey(utf8: $0) } == nil)
    }
}
