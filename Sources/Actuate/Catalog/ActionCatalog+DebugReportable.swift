import Foundation

extension ActionCatalog: DebugReportable {
    /// The section's name in a debug report: `catalog`.
    public var debugReportSectionName: String { "catalog" }

    /// After the timeline, the action stacks and the availability.
    public var debugReportOrder: Int { 90 }

    /// The catalog as JSON, the same document as ``jsonData()``.
    ///
    /// - Returns: The JSON document.
    /// - Throws: An encoding error, which the catalog's plain values never produce.
    public func debugReportJSON() throws -> Data {
        try jsonData()
    }

    /// The catalog as Markdown.
    ///
    /// - Returns: The same text as ``markdown()``.
    public func debugReportText() -> String {
        markdown()
    }
}
