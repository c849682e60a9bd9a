import Foundation

extension CollectedEventDecoding {
    /// Decodes an event object in Actuate's own shape straight from the parser's bytes into a ``ReportEvent``,
    /// without the dictionary of its members: the id and the time are read in place, and only the properties become
    /// a dictionary.
    ///
    /// It reads only what ``event(from:)`` would read the same way: an object whose members are all among `id`,
    /// `type`, `timestamp`, `sessionID`, `anonymousID`, `userID` and `properties`, with strings where strings belong,
    /// an ISO 8601 time and an object (or null) of properties. For anything else (another shape, a member of another
    /// kind, an id with an escape, JSON that is not valid) it throws ``JSONBytesParser/Failure/invalid(_:)``, and the
    /// caller goes back to the object's `{` and parses it whole, so that the figures and the error messages are those
    /// of ``event(from:)``. (It throws rather than return an optional: `ReportEvent?` of a type holding Foundation's
    /// `UUID` and `Date` costs a metadata lookup per event.)
    /// - Parameter parser: A parser whose next value is the object; on success it is moved past the object.
    /// - Returns: The event.
    /// - Throws: ``JSONBytesParser/Failure/truncated`` when the window ends inside the object;
    ///   ``JSONBytesParser/Failure/invalid(_:)`` when the caller must read the object the general way.
    static func actuateEvent(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> ReportEvent {
        try parser.expect(UInt8(ascii: "{"), "{")
        if try parser.consume(UInt8(ascii: "}")) { throw otherShape }
        var id: UUID?
        var type: String?
        var timestamp: Date?
        var sessionID = ""
        var anonymousID = ""
        var userID: String?
        var properties: [String: JSONValue] = [:]
        while true {
            guard try parser.peek() == UInt8(ascii: "\""), let key = try parser.parseUnescapedString() else {
                throw otherShape
            }
            try parser.expect(UInt8(ascii: ":"), "':' after a member name")
            let isString = try parser.peek() == UInt8(ascii: "\"")
            switch key.count {
            case 2 where parser.isText("id", at: key):
                guard isString, let digits = try parser.parseUnescapedString(), !digits.isEmpty else {
                    throw otherShape
                }
                id = parser.withBytes(at: digits) { bytes in
                    uuid(utf8: bytes) ?? derivedUUID(of: String(decoding: bytes, as: UTF8.self))
                }
            case 4 where parser.isText("type", at: key):
                guard isString else { throw otherShape }
                type = try parser.parseString()
            case 9 where parser.isText("timestamp", at: key):
                guard isString, let text = try parser.parseUnescapedString(),
                    let date = parser.withBytes(at: text, ISO8601Text.date(utf8:))
                else { throw otherShape }
                timestamp = date
            case 9 where parser.isText("sessionID", at: key):
                guard isString else { throw otherShape }
                sessionID = try parser.parseString()
            case 11 where parser.isText("anonymousID", at: key):
                guard isString else { throw otherShape }
                anonymousID = try parser.parseString()
            case 6 where parser.isText("userID", at: key):
                guard isString else { throw otherShape }
                userID = try parser.parseString()
            case 10 where parser.isText("properties", at: key):
                switch try parser.parseValue(depth: 1) {
                case .object(let members): properties = members
                case .null: properties = [:]
                default: throw otherShape
                }
            default:
                throw otherShape
            }
            if try parser.consume(UInt8(ascii: ",")) { continue }
            try parser.expect(UInt8(ascii: "}"), "',' or '}' in an object")
            break
        }
        guard let id, let type, let timestamp else { throw otherShape }
        return ReportEvent(
            id: id,
            type: type,
            timestamp: timestamp,
            sessionID: sessionID,
            anonymousID: anonymousID,
            userID: userID,
            properties: properties
        )
    }

    private static let otherShape = JSONBytesParser.Failure.invalid("not an event in Actuate's own shape")
}
