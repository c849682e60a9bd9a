import Foundation

/// A debug report read back from its JSON document by ``DebugReportDecoder``.
///
/// The timeline and action stacks are decoded; every other section (availability, focus logs, and sections
/// of your own) is kept as JSON, to decode with ``section(_:as:)``.
public struct DebugReportDocument: Sendable {
    /// The format the report was written in.
    package let formatVersion: Int
    /// When the report was written, on the clock of the dispatcher it belongs to.
    package let generatedAt: Date
    /// The names of the sections present, in report order.
    package let sectionNames: [String]
    /// The `timeline` section, if present.
    public let timeline: TimelineDump?
    /// The `actionStacks` section, if present.
    public let actionStacks: ActionStacksSnapshot?
    private let sectionData: [String: Data]

    init(
        formatVersion: Int,
        generatedAt: Date,
        sectionNames: [String],
        timeline: TimelineDump?,
        actionStacks: ActionStacksSnapshot?,
        sectionData: [String: Data]
    ) {
        self.formatVersion = formatVersion
        self.generatedAt = generatedAt
        self.sectionNames = sectionNames
        self.timeline = timeline
        self.actionStacks = actionStacks
        self.sectionData = sectionData
    }

    /// The JSON of one section, as the report holds it.
    ///
    /// - Parameter name: The section's name, such as `focusLogs`.
    /// - Returns: The section's JSON, or nil when the report has no such section.
    func sectionJSON(_ name: String) -> Data? {
        sectionData[name]
    }

    /// One section, decoded with the report's date format.
    ///
    /// - Parameters:
    ///   - name: The section's name, such as `availability`.
    ///   - type: The type to decode it as.
    /// - Returns: The section, or nil when the report has no such section.
    /// - Throws: An error naming the section and the reason when it does not decode as `type`.
    public func section<Section: Decodable>(
        _ name: String,
        as type: Section.Type
    ) throws -> Section? {
        guard let data = sectionData[name] else { return nil }
        return try DebugReportDecoder.decode(type, from: data, section: name)
    }
}
