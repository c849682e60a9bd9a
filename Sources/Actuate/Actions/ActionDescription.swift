/// The text an action's ``Action/description`` has when none was written, and the test catalogs use to flag it.
///
/// As in Flint, an action that does not write a description gets one that says so, `"No description"`, so a
/// debug screen or a catalog never shows a blank. ``ActionCatalog`` flags every such action
/// (`ActionCatalog.ActionEntry.hasDescription`):
///
/// <!-- readme: package-only -->
/// ```swift
/// let undocumented = try ActionCatalog(group: AppFeatures.self).actionsWithoutDescription
/// ```
package enum ActionDescription {
    /// The default ``Action/description``: `"No description"`, Flint's wording.
    package static let missing = "No description"

    /// Whether `description` says nothing: it is ``missing``, or empty or white space only.
    ///
    /// - Parameter description: An action's description.
    /// - Returns: True when no description was written.
    package static func isMissing(_ description: String) -> Bool {
        description == missing || description.allSatisfy(\.isWhitespace)
    }
}
