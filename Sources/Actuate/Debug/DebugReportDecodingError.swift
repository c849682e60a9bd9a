/// Why a debug report or timeline dump could not be read.
package enum DebugReportDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is not JSON.
    case notJSON(reason: String)
    /// The JSON is not a debug report or timeline dump: a required key is missing or has the wrong type.
    case notADebugReport(reason: String)
    /// The document has no `formatVersion`: it was written before format 1.
    case writtenBeforeFormat1
    /// The document is in a format newer than this version of Actuate reads.
    case newerFormat(found: Int, supported: Int)
    /// A section is not in the shape its type expects.
    case malformedSection(name: String, reason: String)

    package var description: String {
        switch self {
        case .notJSON(let reason):
            "The file is not JSON: \(reason)"
        case .notADebugReport(let reason):
            "The file is not an Actuate debug report: \(reason)"
        case .writtenBeforeFormat1:
            "The debug report has no formatVersion: it was written before format 1; re-create it with this "
                + "version of Actuate."
        case .newerFormat(let found, let supported):
            "The debug report is in format \(found), newer than format \(supported), the newest this version of "
                + "Actuate reads; read it with a newer version."
        case .malformedSection(let name, let reason):
            "The debug report's '\(name)' section is malformed: \(reason)"
        }
    }
}
