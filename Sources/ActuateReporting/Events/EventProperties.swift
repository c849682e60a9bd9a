/// Builders for the typed properties of reporting events.
///
/// They use the names in `ReportEventKey`, so every producer writes the same shape.
public enum EventProperties {
    /// The properties that identify a piece of content: source, id and, when known, name.
    /// - Parameter content: The content.
    /// - Returns: `contentSource`, `actionId` and `actionName`.
    public static func content(_ content: ContentReference) -> [String: JSONValue] {
        var properties: [String: JSONValue] = [
            ReportEventKey.contentSource: .string(content.source.rawValue),
            ReportEventKey.actionID: .string(content.id),
        ]
        if let name = content.name {
            properties[ReportEventKey.actionName] = .string(name)
        }
        return properties
    }

    /// The properties of a purchase event, read by product-click contribution statistics.
    /// - Parameter productIDs: The ids of the products bought.
    /// - Returns: `productIds` as a JSON array of strings.
    public static func purchase(productIDs: [String]) -> [String: JSONValue] {
        [ReportEventKey.productIDs: .array(productIDs.map { .string($0) })]
    }
}
