import Foundation

/// The compact binary encoding of a ``ReportEvent`` inside a journal record.
///
/// Layout: a format byte (`1`), the 16 bytes of the id (always at payload offset 1, so recovery reads ids
/// without decoding the rest), the timestamp as the bit pattern of its `timeIntervalSinceReferenceDate`, then
/// the type, session id, anonymous id, an optional user id and the properties. Strings are a LEB128 length
/// and UTF-8 bytes; each ``JSONValue`` is a tag byte and its contents. Every value round-trips exactly.
package enum ReportEventCodec {
    /// The format byte that starts every payload.
    static let format: UInt8 = 1
    /// How deeply property values may nest; deeper values are refused when encoding.
    static let maxDepth = 256

    private enum Tag: UInt8 {
        case null = 0
        case falseValue = 1
        case trueValue = 2
        case number = 3
        case string = 4
        case array = 5
        case object = 6
    }

    /// Appends the encoding of `event` to `buffer`.
    ///
    /// - Throws: ``EventStoreError/encodingFailed(reason:)`` when a property nests more than ``maxDepth`` deep.
    static func encode(_ event: ReportEvent, into buffer: inout [UInt8]) throws {
        buffer.append(format)
        withUnsafeBytes(of: event.id.uuid) { buffer.append(contentsOf: $0) }
        appendFixed(event.timestamp.timeIntervalSinceReferenceDate.bitPattern, to: &buffer)
        appendString(event.type, to: &buffer)
        appendString(event.sessionID, to: &buffer)
        appendString(event.anonymousID, to: &buffer)
        if let userID = event.userID {
            buffer.append(1)
            appendString(userID, to: &buffer)
        } else {
            buffer.append(0)
        }
        try appendObject(event.properties, depth: 0, to: &buffer)
    }

    /// The id of the event encoded in `payload`, read without decoding the rest.
    /// The index key of the id at the start of an event payload, read straight from its bytes; `nil` when the
    /// payload is not an event's. Recovery keys every record with it, without building a `UUID`.
    static func idKey(in payload: UnsafeRawBufferPointer) -> JournalEventKey? {
        guard payload.count >= 17, payload[0] == format else { return nil }
        return JournalEventKey(
            high: payload.loadUnaligned(fromByteOffset: 1, as: UInt64.self),
            low: payload.loadUnaligned(fromByteOffset: 9, as: UInt64.self)
        )
    }

    package static func id(in payload: UnsafeRawBufferPointer) -> UUID? {
        guard payload.count >= 17, payload[0] == format else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: payload[1..<17])) }
        return UUID(uuid: uuid)
    }

    /// Decodes an event from the start of `reader`, leaving the reader after it.
    ///
    /// - Throws: ``EventStoreError/ioFailed(path:reason:)`` naming `path` when the bytes are not an event.
    package static func decode(from reader: inout JournalByteReader) throws -> ReportEvent {
        guard try reader.byte() == format else { throw reader.failure("unknown event format") }
        let idBytes = try reader.bytes(16)
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: idBytes) }
        let timestamp = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.fixed64()))
        let type = try reader.string()
        let sessionID = try reader.string()
        let anonymousID = try reader.string()
        let userID: String? = try reader.byte() == 0 ? nil : reader.string()
        let properties = try decodeObject(from: &reader, depth: 0)
        return ReportEvent(
            id: UUID(uuid: uuid),
            type: type,
            timestamp: timestamp,
            sessionID: sessionID,
            anonymousID: anonymousID,
            userID: userID,
            properties: properties
        )
    }

    private static func appendValue(_ value: JSONValue, depth: Int, to buffer: inout [UInt8]) throws {
        switch value {
        case .null: buffer.append(Tag.null.rawValue)
        case .bool(let flag): buffer.append(flag ? Tag.trueValue.rawValue : Tag.falseValue.rawValue)
        case .number(let number):
            buffer.append(Tag.number.rawValue)
            appendFixed(number.bitPattern, to: &buffer)
        case .string(let string):
            buffer.append(Tag.string.rawValue)
            appendString(string, to: &buffer)
        case .array(let elements):
            guard depth < maxDepth else { throw EventStoreError.encodingFailed(reason: "properties nest too deeply") }
            buffer.append(Tag.array.rawValue)
            appendVarint(UInt64(elements.count), to: &buffer)
            for element in elements { try appendValue(element, depth: depth + 1, to: &buffer) }
        case .object(let members):
            guard depth < maxDepth else { throw EventStoreError.encodingFailed(reason: "properties nest too deeply") }
            buffer.append(Tag.object.rawValue)
            try appendObject(members, depth: depth + 1, to: &buffer)
        }
    }

    private static func appendObject(_ members: [String: JSONValue], depth: Int, to buffer: inout [UInt8]) throws {
        appendVarint(UInt64(members.count), to: &buffer)
        for (key, value) in members {
            appendString(key, to: &buffer)
            try appendValue(value, depth: depth, to: &buffer)
        }
    }

    private static func decodeValue(from reader: inout JournalByteReader, depth: Int) throws -> JSONValue {
        guard let tag = Tag(rawValue: try reader.byte()) else { throw reader.failure("unknown value tag") }
        switch tag {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .number: return .number(Double(bitPattern: try reader.fixed64()))
        case .string: return .string(try reader.string())
        case .array:
            guard depth < maxDepth else { throw reader.failure("values nest too deeply") }
            let count = try reader.count()
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try decodeValue(from: &reader, depth: depth + 1)) }
            return .array(elements)
        case .object:
            guard depth < maxDepth else { throw reader.failure("values nest too deeply") }
            return .object(try decodeObject(from: &reader, depth: depth + 1))
        }
    }

    private static func decodeObject(from reader: inout JournalByteReader, depth: Int) throws -> [String: JSONValue] {
        let count = try reader.count()
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(count)
        for _ in 0..<count {
            let key = try reader.string()
            members[key] = try decodeValue(from: &reader, depth: depth)
        }
        return members
    }

    static func appendFixed(_ value: UInt64, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    static func appendVarint(_ value: UInt64, to buffer: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    static func appendString(_ string: String, to buffer: inout [UInt8]) {
        let utf8 = string.utf8
        appendVarint(UInt64(utf8.count), to: &buffer)
        if utf8.withContiguousStorageIfAvailable({ buffer.append(contentsOf: $0) }) == nil {
            buffer.append(contentsOf: utf8)
        }
    }
}

/// Reads the fields of a journal payload, throwing instead of reading past its end.
package struct JournalByteReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var position: Int

    /// Creates a reader over `bytes`, starting at their beginning.
    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.position = 0
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position == bytes.count }

    /// An error describing malformed bytes.
    func failure(_ reason: String) -> EventStoreError {
        .ioFailed(path: "journal record", reason: "\(reason) at payload offset \(position)")
    }

    mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw failure("record ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bytes(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, count <= bytes.count - position else { throw failure("record ends early") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
    }

    mutating func fixed64() throws -> UInt64 {
        let raw = try bytes(8)
        return raw.loadUnaligned(as: UInt64.self).littleEndian
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw failure("varint too long") }
            result |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return result }
            shift += 7
        }
    }

    /// A length or count, which can never exceed the bytes that remain.
    mutating func count() throws -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - position) else { throw failure("count larger than record") }
        return Int(value)
    }

    package mutating func string() throws -> String {
        let raw = try bytes(try count())
        // ASCII is valid UTF-8 as it stands and is decoded by the fast, specialized path; only other text goes
        // through `String(validating:)`, which looks up generic metadata for each string.
        if raw.allSatisfy({ $0 < 0x80 }) {
            return raw.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
        }
        guard let string = String(validating: raw, as: UTF8.self) else { throw failure("invalid UTF-8") }
        return string
    }
}
