import Foundation

/// One event as a row of a flat table: the schema `actuate export --ndjson` writes, one JSON object per line, and
/// the table `Warehouse/schema.sql` creates.
///
/// | column | type | from the event |
/// |---|---|---|
/// | `event_id` | text | ``ReportEvent/id``, upper-case UUID |
/// | `event_type` | text | ``ReportEvent/type`` (`executed`, `target`, `purchase`, `action_ended`, …) |
/// | `event_time` | timestamp, UTC, milliseconds | ``ReportEvent/timestamp``, ISO 8601 |
/// | `session_id` | text | ``ReportEvent/sessionID`` |
/// | `anonymous_id` | text | ``ReportEvent/anonymousID`` |
/// | `user_id` | text or null | ``ReportEvent/userID`` |
/// | `content_source` | text or null | property `contentSource` |
/// | `content_id` | text or null | property `actionId` (a content's id, a campaign's id) |
/// | `content_name` | text or null | property `actionName` |
/// | `campaign_id` | text or null | `content_id` when `content_source` is `campaign` |
/// | `is_control_group` | boolean or null | for campaign events: the type is `control_impression` or property `controlGroup` is true |
/// | `action_name` | text or null | property `action` (an `action_ended` event's action) |
/// | `action_outcome` | text or null | property `outcome` (`success`, `failure`, `cancelled`) |
/// | `properties` | text holding a JSON object | every other property |
///
/// The five properties with a column of their own (`contentSource`, `actionId`, `actionName`, `action`,
/// `outcome`) leave `properties` when they are strings, so reading a row back gives the event again.
package enum FlatEventRow {
    /// The columns, in order.
    package enum Column: String, CaseIterable, Sendable {
        case eventID = "event_id"
        case eventType = "event_type"
        case eventTime = "event_time"
        case sessionID = "session_id"
        case anonymousID = "anonymous_id"
        case userID = "user_id"
        case contentSource = "content_source"
        case contentID = "content_id"
        case contentName = "content_name"
        case campaignID = "campaign_id"
        case isControlGroup = "is_control_group"
        case actionName = "action_name"
        case actionOutcome = "action_outcome"
        case properties
    }

    /// The properties that move to a column of their own, when they are strings.
    static let movedProperties: [(Column, String)] = [
        (.contentSource, ReportEventKey.contentSource),
        (.contentID, ReportEventKey.actionID),
        (.contentName, ReportEventKey.actionName),
        (.actionName, ReportEventKey.action),
        (.actionOutcome, ReportEventKey.outcome),
    ]

    private static let controlImpression = "control_impression"
    private static let campaignSource = "campaign"
    private static let controlGroupKey = "controlGroup"

    /// Appends one event as a line of NDJSON (the row object and a line feed).
    /// - Parameters:
    ///   - event: The event.
    ///   - bytes: Where the line goes.
    package static func appendLine(_ event: ReportEvent, to bytes: inout [UInt8]) {
        var json = JSONByteWriter()
        swap(&json.bytes, &bytes)
        defer { swap(&json.bytes, &bytes) }
        var rest = event.properties
        var moved: [String?] = []
        for (_, key) in movedProperties {
            if let text = rest[key]?.stringValue {
                moved.append(text)
                rest[key] = nil
            } else {
                moved.append(nil)
            }
        }
        let source = moved[0]
        let isCampaign = source == campaignSource
        json.append("{\"event_id\":\"")
        json.writeUUIDDigits(event.id)
        json.append("\",\"event_type\":")
        json.writeString(event.type)
        json.append(",\"event_time\":")
        json.writeDate(event.timestamp)
        json.append(",\"session_id\":")
        json.writeString(event.sessionID)
        json.append(",\"anonymous_id\":")
        json.writeString(event.anonymousID)
        json.append(",\"user_id\":")
        writeOptional(event.userID, &json)
        json.append(",\"content_source\":")
        writeOptional(source, &json)
        json.append(",\"content_id\":")
        writeOptional(moved[1], &json)
        json.append(",\"content_name\":")
        writeOptional(moved[2], &json)
        json.append(",\"campaign_id\":")
        writeOptional(isCampaign ? moved[1] : nil, &json)
        json.append(",\"is_control_group\":")
        if isCampaign {
            let control =
                event.type == controlImpression || event.properties[controlGroupKey]?.boolValue == true
            json.append(control ? "true" : "false")
        } else {
            json.append("null")
        }
        json.append(",\"action_name\":")
        writeOptional(moved[3], &json)
        json.append(",\"action_outcome\":")
        writeOptional(moved[4], &json)
        json.append(",\"properties\":")
        // Keys sorted, so that the same events always give the same file.
        var inner = JSONByteWriter()
        inner.bytes.append(UInt8(ascii: "{"))
        for (index, key) in rest.keys.sorted().enumerated() {
            if index > 0 { inner.bytes.append(UInt8(ascii: ",")) }
            inner.writeString(key)
            inner.bytes.append(UInt8(ascii: ":"))
            inner.writeValue(rest[key] ?? .null)
        }
        inner.bytes.append(UInt8(ascii: "}"))
        json.writeString(String(decoding: inner.bytes, as: UTF8.self))
        json.append("}\n")
    }

    private static func writeOptional(_ text: String?, _ json: inout JSONByteWriter) {
        if let text { json.writeString(text) } else { json.append("null") }
    }
}
