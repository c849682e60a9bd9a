extension ReportEvent {
    /// The typed event type.
    package var eventType: ReportEventType { ReportEventType(rawValue: type) }

    /// The content status, or nil when the event is not a content event or its type is unknown.
    package var contentStatus: ContentStatus? { ContentStatus(rawValue: type) }

    /// The content the event is about, read from its properties, or nil when they do not name one.
    package var contentReference: ContentReference? {
        guard let id = properties[ReportEventKey.actionID]?.stringValue, !id.isEmpty else { return nil }
        let source = properties[ReportEventKey.contentSource]?.stringValue.map(ContentSource.init(rawValue:))
        return ContentReference(
            source: source ?? .fallback,
            id: id,
            name: properties[ReportEventKey.actionName]?.stringValue
        )
    }

    /// Whether the event was recorded through the force-tracking path, so consent did not gate it.
    package var isTrackingForced: Bool { properties[ReportEventKey.trackingForced]?.boolValue == true }

    /// The product ids a purchase event carries, from `productIds` (an array) or a single `productId`.
    package var purchasedProductIDs: [String] {
        var ids: [String] = []
        if case .array(let values) = properties[ReportEventKey.productIDs] {
            ids += values.compactMap(\.stringValue)
        }
        if let single = properties[ReportEventKey.productID]?.stringValue {
            ids.append(single)
        }
        var seen = Set<String>()
        return ids.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
