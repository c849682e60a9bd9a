import Foundation
import Testing

@testable import ActuateReporting

@Suite("JSON byte writer strings")
struct JSONByteWriterTests {
    /// Strings that exercise every escape, every UTF-8 length, and escapes at the start, middle and end of runs.
    static let trickyStrings: [String] = [
        "",
        "plain ascii",
        "\"",
        "\\",
        "quote \" inside, backslash \\ inside",
        "\"starts and ends with quotes\"",
        "\\\\double backslash\\\\",
        String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }),
        "tab\tnew line\ncarriage\rback\u{8}form\u{C}nul\u{0}unit\u{1F}",
        "delete \u{7F} is not escaped",
        "line\u{2028}separator\u{2029}paragraph",
        "emoji 👍🏽 family 👨‍👩‍👧 flag 🇫🇷",
        "é à ü, 中文, русский, عربى",
        "slash / and </script>",
        "\u{FEFF}byte order mark",
        "\u{10FFFF} last scalar",
        String(repeating: "long run without escapes ", count: 200) + "\"" + String(repeating: "é", count: 300),
        "short\n",
    ]

    @Test("writes the same bytes as the per-byte escaper", arguments: trickyStrings)
    func sameBytesAsPerByteEscaper(text: String) {
        var writer = JSONByteWriter()
        writer.writeString(text)
        #expect(writer.bytes == Self.perByteEscaped(text))
    }

    @Test(
        "writes what JSONEncoder writes, and JSONDecoder and JSONSerialization read it back",
        arguments: trickyStrings
    )
    func matchesFoundation(text: String) throws {
        var writer = JSONByteWriter()
        writer.writeString(text)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        #expect(writer.bytes == Array(try encoder.encode(text)))
        #expect(try JSONDecoder().decode(String.self, from: Data(writer.bytes)) == text)
        // Linux's JSONSerialization drops a byte order mark from a string, so it reads those strings without it.
        let document = Data([UInt8(ascii: "[")] + writer.bytes + [UInt8(ascii: "]")])
        let serialized = try JSONSerialization.jsonObject(with: document) as? [String]
        #expect(serialized == [text.replacingOccurrences(of: "\u{FEFF}", with: "")])
    }

    @Test("writes a string that is not native UTF-8 the same way")
    func bridgedString() {
        let text = "bridged \"text\" with é and \n"
        let bridged = String(NSString(string: text))
        var writer = JSONByteWriter()
        writer.writeString(bridged)
        #expect(writer.bytes == Self.perByteEscaped(text))
    }

    @Test(
        "writes numbers as String(Int64) and description spell them",
        arguments: [
            0, -0.0, 1, -1, 7, 9, 10, 11, 99, 100, 101, 999, 1_000, 12_345, -98_765, 1e15, -1e15,
            9_007_199_254_740_992, -9_007_199_254_740_992, 9_007_199_254_740_994, 2.5, -0.125, 1e300,
            .leastNonzeroMagnitude,
        ]
    )
    func numbers(number: Double) {
        var writer = JSONByteWriter()
        writer.writeNumber(number)
        let expected =
            number == number.rounded() && abs(number) <= 9_007_199_254_740_992
            ? String(Int64(number)) : number.description
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test("writes ids as uuidString spells them")
    func ids() {
        let ids =
            [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))] + (0..<50).map { _ in UUID() } + [
                UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
            ]
        for id in ids {
            var writer = JSONByteWriter()
            writer.writeUUIDDigits(id)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == id.uuidString)
        }
    }

    /// The writer's escaping as it was before runs were copied whole: one byte at a time.
    static func perByteEscaped(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        let hexDigits = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): bytes += Array("\\\\".utf8)
            case 0x0A: bytes += Array("\\n".utf8)
            case 0x0D: bytes += Array("\\r".utf8)
            case 0x09: bytes += Array("\\t".utf8)
            case 0x08: bytes += Array("\\b".utf8)
            case 0x0C: bytes += Array("\\f".utf8)
            case 0x00..<0x20: bytes += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }
}
