import Foundation

/// Writes the JSON body of an ``EventBatch`` as a Segment HTTP Tracking API batch, directly as UTF-8 bytes.
///
/// ```json
/// {"batch":[{"type":"track","event":"executed","messageId":"…","anonymousId":"…","userId":"…",
///   "timestamp":"…","properties":{…},"context":{"library":{"name":"Actuate","version":"1"},"sessionId":"…"},
///   "sentAt":"…"}],"sentAt":"…"}
/// ```
///
/// An event of type `identify` becomes an `identify` message whose `traits` are the event's properties; every
/// other event becomes a `track` message named after its type. The event id is the `messageId`, so a receiver
/// that deduplicates by `messageId` drops the copies a retry sends.
struct SegmentBatchJSONWriter: BatchJSONWriter {
    /// The library name and version every message names in `context.library`.
    static let libraryName = "Actuate"
    static let libraryVersion = "1"

    var json: JSONByteWriter

    /// Continues writing into `json`.
    init(json: JSONByteWriter) {
        self.json = json
    }

    mutating func writeElement(_ event: ReportEvent, sentAt: Date) {
        writeMessage(event, sentAt: sentAt)
    }

    /// Appends one message, as it appears in the `batch` array.
    mutating func writeMessage(_ event: ReportEvent, sentAt: Date) {
        let isIdentify = event.type == ReportEventType.identify.rawValue
        if isIdentify {
            json.append("{\"type\":\"identify\"")
        } else {
            json.append("{\"type\":\"track\",\"event\":")
            json.writeString(event.type)
        }
        json.append(",\"messageId\":\"")
        json.writeUUIDDigits(event.id)
        json.append("\",\"anonymousId\":")
        json.writeString(event.anonymousID)
        if let userID = event.userID {
            json.append(",\"userId\":")
            json.writeString(userID)
        }
        json.append(",\"timestamp\":")
        json.writeDate(event.timestamp)
        json.append(isIdentify ? ",\"traits\":" : ",\"properties\":")
        json.writeObject(event.properties)
        json.append(
            ",\"context\":{\"library\":{\"name\":\"\(Self.libraryName)\",\"version\":\"\(Self.libraryVersion)\"}"
        )
        json.append(",\"sessionId\":")
        json.writeString(event.sessionID)
        json.append("},\"sentAt\":")
        json.writeDate(sentAt)
        json.bytes.append(UInt8(ascii: "}"))
    }
}
