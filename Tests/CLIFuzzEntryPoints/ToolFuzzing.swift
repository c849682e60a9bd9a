import ActuateCLI
import Foundation

/// The entry point of the `actuate` libFuzzer target in `Tests/Fuzz`, and of the regression tests that replay its
/// corpus. It feeds arbitrary bytes to the CLI's reader of debug reports and must return, whatever the bytes.
/// It lives in `ActuateCLIFuzzEntryPoints`, a target in no product (apart from `ActuateFuzzEntryPoints`, because
/// only a target that depends on the executable target `ActuateCLI` itself links its code), and reaches the CLI's
/// `package` report types.
package enum ToolFuzzing {
    /// A debug report, read as `actuate dump` reads it, then written every way `dump` writes it: as text, as the
    /// timeline page and as a trace. Stops the fuzzer, as a crash it reports, when the text would write a control
    /// character of the report's to the terminal.
    /// - Returns: Whether the bytes are a report `actuate dump` accepts.
    @discardableResult
    package static func debugReport(_ data: Data) -> Bool {
        guard let report = try? ReportDocument.parse(data) else { return false }
        let text = ReportText(report: report, colored: false).render()
        precondition(
            !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
            "the text of a report holds a control character"
        )
        _ = ReportText(report: report, colored: true).render()
        _ = try? TimelinePage(report: report).html()
        _ = try? TraceEvents(report: report).jsonData()
        return true
    }
}
