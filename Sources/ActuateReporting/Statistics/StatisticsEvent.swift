import Foundation

/// One event as the statistics read it: the id, the time, the people as 64-bit hashes (``IDHash``), the type and the
/// few properties the accumulators look at as numbers of ``StatisticsTexts``, and no dictionary.
///
/// Collected batch files are decoded into it straight from their bytes; every other event (a store's, a Segment
/// message, a flat row, an Actuate event of a shape the byte decoder leaves alone) is converted from its
/// ``ReportEvent`` by ``init(_:texts:)``, which defines what each field means. Texts are numbered in one
/// ``StatisticsTexts``, and a number means nothing outside it.
package struct StatisticsEvent: Equatable {
    /// The event's id.
    package var id: UUID
    /// The type's text.
    package var type: UInt32
    /// When it happened.
    package var timestamp: Date
    /// ``IDHash`` of the session id.
    package var session: UInt64
    /// ``IDHash`` of the anonymous id.
    package var anonymous: UInt64
    /// ``IDHash`` of the user id, 0 without one.
    package var user: UInt64 = 0
    /// The `contentSource` property's text, 0 unless it is a string.
    package var contentSource: UInt32 = 0
    /// The `actionId` property's text (a content's or a campaign's id), 0 unless it is a string.
    package var contentID: UInt32 = 0
    /// The `actionName` property's text, 0 unless it is a string.
    package var contentName: UInt32 = 0
    /// ``IDHash`` of the `productId` property, 0 unless it is a non-empty string.
    package var productID: UInt64 = 0
    /// The `analyticsId` property's text, 0 unless it is a string.
    package var analyticsID: UInt32 = 0
    /// The `action` property's text (an action's name), 0 unless it is a string.
    package var actionName: UInt32 = 0
    /// The `feature` property's text, 0 unless it is a string.
    package var feature: UInt32 = 0
    /// The `outcome` property's text, 0 unless it is a string.
    package var outcome: UInt32 = 0
    /// The `source` property's text (where an action came from), 0 unless it is a string.
    package var arrivalSource: UInt32 = 0
    /// The `durationSeconds` property, when it is a number.
    package var durationSeconds: Double?
    /// The fields few events have, nil while they are all empty: one reference rather than four, so that an event
    /// is copied with one retain and most events with none.
    private var rareFields: RareFields?

    /// ``IDHash`` of each of ``ReportEvent/purchasedProductIDs``, in order.
    package var purchasedProducts: [UInt64] {
        get { rareFields?.purchasedProducts ?? [] }
        set { updateRareFields(newValue.isEmpty) { $0.purchasedProducts = newValue } }
    }
    /// The `result` property, when it is a string.
    package var result: String? {
        get { rareFields?.result }
        set { updateRareFields(newValue == nil) { $0.result = newValue } }
    }
    /// The `url` property, when it is a string.
    package var url: String? {
        get { rareFields?.url }
        set { updateRareFields(newValue == nil) { $0.url = newValue } }
    }
    /// The `name` property (a user action's name), when it is a string.
    package var name: String? {
        get { rareFields?.name }
        set { updateRareFields(newValue == nil) { $0.name = newValue } }
    }

    /// An event with only the members every event has.
    package init(id: UUID, type: UInt32, timestamp: Date, session: UInt64, anonymous: UInt64) {
        self.id = id
        self.type = type
        self.timestamp = timestamp
        self.session = session
        self.anonymous = anonymous
    }

    /// The fields of `event`, its texts numbered in `texts`.
    /// - Parameters:
    ///   - event: The event.
    ///   - texts: Where its texts are numbered.
    package init(_ event: ReportEvent, texts: inout StatisticsTexts) {
        self.init(
            id: event.id,
            type: texts.number(of: event.type),
            timestamp: event.timestamp,
            session: IDHash.of(event.sessionID),
            anonymous: IDHash.of(event.anonymousID)
        )
        user = event.userID.map(IDHash.of) ?? 0
        let properties = event.properties
        func text(_ key: String) -> UInt32 {
            properties[key]?.stringValue.map { texts.number(of: $0) } ?? 0
        }
        contentSource = text(ReportEventKey.contentSource)
        contentID = text(ReportEventKey.actionID)
        contentName = text(ReportEventKey.actionName)
        if let product = properties[ReportEventKey.productID]?.stringValue, !product.isEmpty {
            productID = IDHash.of(product)
        }
        purchasedProducts = event.purchasedProductIDs.map(IDHash.of)
        analyticsID = text(ReportEventKey.analyticsID)
        actionName = text(ReportEventKey.action)
        feature = text(ReportEventKey.feature)
        outcome = text(ReportEventKey.outcome)
        arrivalSource = text(ReportEventKey.source)
        durationSeconds = properties[ReportEventKey.durationSeconds]?.numberValue
        result = properties[ReportEventKey.result]?.stringValue
        url = properties[ReportEventKey.url]?.stringValue
        name = properties[Self.nameKey]?.stringValue
    }

    /// Sets a rare field through `update`, on a copy of the fields when another event shares them; an empty value
    /// on an event without rare fields needs none.
    private mutating func updateRareFields(_ isEmpty: Bool, _ update: (RareFields) -> Void) {
        if rareFields == nil {
            if isEmpty { return }
            rareFields = RareFields()
        } else if !isKnownUniquelyReferenced(&rareFields) {
            rareFields = rareFields?.copy()
        }
        if let rareFields { update(rareFields) }
    }

    package static func == (lhs: StatisticsEvent, rhs: StatisticsEvent) -> Bool {
        lhs.id == rhs.id && lhs.type == rhs.type && lhs.timestamp == rhs.timestamp && lhs.session == rhs.session
            && lhs.anonymous == rhs.anonymous && lhs.user == rhs.user && lhs.contentSource == rhs.contentSource
            && lhs.contentID == rhs.contentID && lhs.contentName == rhs.contentName && lhs.productID == rhs.productID
            && lhs.analyticsID == rhs.analyticsID && lhs.actionName == rhs.actionName && lhs.feature == rhs.feature
            && lhs.outcome == rhs.outcome && lhs.arrivalSource == rhs.arrivalSource
            && lhs.durationSeconds == rhs.durationSeconds && lhs.purchasedProducts == rhs.purchasedProducts
            && lhs.result == rhs.result && lhs.url == rhs.url && lhs.name == rhs.name
    }

    /// The property a user action's name is recorded under.
    package static let nameKey = "name"

    /// The content status of the type, or nil when it is not one.
    package var contentStatus: ContentStatus? {
        switch type &- StatisticsTexts.executed {
        case 0: .executed
        case 1: .target
        case 2: .close
        case 3: .product
        case 4: .article
        case 5: .error
        default: nil
        }
    }

    /// Where the action came from: the `source` property's arrival source, or the application without one.
    package var arrival: ArrivalSource {
        switch arrivalSource &- StatisticsTexts.application {
        case 1: .url
        case 2: .activity
        case 3: .intent
        default: .application
        }
    }
}

/// The fields of a ``StatisticsEvent`` that few events have, held by reference and copied before a change when
/// shared, so that the event keeps value semantics.
private final class RareFields {
    var purchasedProducts: [UInt64] = []
    var result: String?
    var url: String?
    var name: String?

    func copy() -> RareFields {
        let copy = RareFields()
        copy.purchasedProducts = purchasedProducts
        copy.result = result
        copy.url = url
        copy.name = name
        return copy
    }
}
