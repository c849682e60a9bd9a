import Foundation
import Testing

@testable import ActuateCLI

@Suite("Report text on a terminal")
struct TerminalTextTests {
    /// Control characters a report may not write to a terminal: C0 (ESC, BEL, newline), DEL, C1 (CSI), and a
    /// right-to-left override.
    private static func controls(in text: String, keeping kept: Set<Unicode.Scalar> = ["\n"]) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            !kept.contains(scalar)
                && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value))
        }
    }

    @Test("control characters are written as visible escapes; other text is left alone")
    func escapes() {
        #expect(TerminalText.escaped("Buy › Now ✓ été") == "Buy › Now ✓ été")
        #expect(
            TerminalText.escaped("a\u{1B}]52;c;ZXZpbA==\u{7}\u{1B}[2Jb\n\t\u{7F}\u{9B}\u{202E}")
                == #"a\u{1B}]52;c;ZXZpbA==\u{7}\u{1B}[2Jb\u{A}\u{9}\u{7F}\u{9B}\u{202E}"#
        )
        #expect(TerminalText.escapedKeepingLines("one\n\ttwo\u{1B}[2J") == "one\n\ttwo\\u{1B}[2J")
    }

    @Test("dump writes no control character of the report's, in every string it shows")
    func dumpEscapesEveryString() throws {
        let result = runTool(["dump", Fixtures.path("report-terminal-escapes.json")])
        #expect(result.status == 0, "\(result.error)")
        #expect(Self.controls(in: result.output) == [])
        let clipboard = #"\u{1B}]52;c;ZXZpbA==\u{7}\u{1B}[2J\u{9B}31m\u{7F}\u{202E}"#
        // generatedAt, the session, the feature and action, the input, the queue, the message; the stack's
        // session, feature, opening time, entry, input and message; the closed stack's time and reason.
        #expect(result.output.components(separatedBy: clipboard).count - 1 == 15, "\(result.output)")
    }

    @Test("in colour, the only escapes are the ones that colour failures")
    func colouredOutput() throws {
        let report = try ReportDocument.parse(try Fixtures.data("report-terminal-escapes.json"))
        let text = ReportText(report: report, colored: true).render()
        #expect(text.contains("\u{1B}[1;31m"))
        let uncoloured = text.replacingOccurrences(of: "\u{1B}[1;31m", with: "")
            .replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(Self.controls(in: uncoloured) == [])
    }

    @Test("an error message quoting the file escapes its control characters too")
    func errorsAreEscaped() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("report.json")
        try Data(#"{"formatVersion": "\u001b[2J\u001b]52;c;eA==\u0007"}"#.utf8).write(to: URL(fileURLWithPath: path))
        let result = runTool(["dump", path])
        #expect(result.status == 1)
        #expect(result.error.contains(#"\u{1B}[2J\u{1B}]52;c;eA==\u{7}"#), "\(result.error)")
        #expect(Self.controls(in: result.error) == [])
    }
}
