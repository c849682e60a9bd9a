import Foundation

/// A writer of one wire format of an ``EventBatch`` body. The formats share the envelope,
/// `{"batch":[…],"sentAt":"…"}`, which ``writeBatch(_:sentAt:)`` writes around the format's own elements.
protocol BatchJSONWriter {
    /// The bytes, and the primitives that write them.
    var json: JSONByteWriter { get set }

    /// Continues writing into `json`.
    init(json: JSONByteWriter)

    /// Appends one event as it appears in the `batch` array.
    /// - Parameters:
    ///   - event: The event.
    ///   - sentAt: The time the batch is sent, for formats that repeat it in every element.
    mutating func writeElement(_ event: ReportEvent, sentAt: Date)
}

extension BatchJSONWriter {
    /// Creates a writer with room for `capacity` bytes.
    init(reservingCapacity capacity: Int) {
        self.init(json: JSONByteWriter(reservingCapacity: capacity))
    }

    /// The bytes written so far.
    var bytes: [UInt8] { json.bytes }

    /// Appends `{"batch":[…],"sentAt":"…"}`.
    mutating func writeBatch(_ events: [ReportEvent], sentAt: Date) {
        json.append("{\"batch\":[")
        for (index, event) in events.enumerated() {
            if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
            writeElement(event, sentAt: sentAt)
        }
        writeBatchEnd(sentAt: sentAt)
    }

    /// Appends `{"batch":[…],"sentAt":"…"}` around elements this writer already wrote, comma separated.
    mutating func writeBatch(elements: [UInt8], sentAt: Date) {
        json.append("{\"batch\":[")
        json.bytes.append(contentsOf: elements)
        writeBatchEnd(sentAt: sentAt)
    }

    private mutating func writeBatchEnd(sentAt: Date) {
        json.append("],\"sentAt\":")
        json.writeDate(sentAt)
        json.bytes.append(UInt8(ascii: "}"))
    }
}
