import Foundation

/// Something that contributes a section to a ``DebugReport``: the timeline, action stacks, focus logs.
public protocol DebugReportable: Sendable {
    /// The section's name, a key in the JSON document.
    var debugReportSectionName: String { get }
    /// Where the section goes: lower comes first. The timeline is 0; the default is 100.
    var debugReportOrder: Int { get }
    /// The section as a JSON document, written with ``DebugReport/makeJSONEncoder()`` so that its dates have
    /// the report's one format.
    func debugReportJSON() throws -> Data
    /// The section as readable text.
    func debugReportText() -> String
}

extension DebugReportable {
    public var debugReportOrder: Int { 100 }
}
