import Foundation

extension CollectedEventDecoding {
    /// Decodes an event object in Actuate's own shape straight from the parser's bytes into a ``ReportEvent``,
    /// without the dictionary of its members: the id and the time are read in place, and only the properties become
    /// a dictionary.
    ///
    /// It reads only what ``event(from:)`` would read the same way: an object whose members are all among `id`,
    /// `type`, `timestamp`, `sessionID`, `anonymousID`, `userID` and `properties`, with strings where strings belong,
    /// an ISO 8601 time and an object (or null) of properties. For anything else (another shape, a member of another
    /// kind, an id with an escape, JSON that is not valid) it returns nil with the position back at the object's `{`,
    /// and the caller parses the object whole, so that the figures and the error messages are those of
    /// ``event(from:)``.
    /// - Parameter parser: A parser whose next value is the object; on success it is moved past the object.
    /// - Returns: The event, or nil when the caller must read the object the general way.
    /// - Throws: ``JSONBytesParser/Failure/truncated`` when the window ends inside the object.
    static func actuateEvent(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> ReportEvent? {
        let start = parser.position
        do throws(JSONBytesParser.Failure) {
            guard let event = try readActuateEvent(&parser) else {
                parser.position = start
                return nil
            }
            return event
        } catch .truncated {
            throw .truncated
        } catch {
            parser.position = start
            return nil
        }
    }

    private static func readActuateEvent(
        _ parser: inout JSONBytesParser
    ) throws(JSONBytesParser.Failure) -> ReportEvent? {
        try parser.expect(UInt8(ascii: "{"), "{")
        if try parser.consume(UInt8(ascii: "}")) { return nil }
        var id: UUID?
        var type: String?
        var timestamp: Date?
        var sessionID = ""
        var anonymousID = ""
        var userID: String?
        var properties: [String: JSONValue] = [:]
        while true {
            guard try parser.peek() == UInt8(ascii: "\""), let key = try parser.parseUnescapedString() else {
                return nil
            }
            try parser.expect(UInt8(ascii: ":"), "':' after a member name")
            let isString = try parser.peek() == UInt8(ascii: "\"")
            switch key.count {
            case 2 where parser.isText("id", at: key):
                guard isString, let digits = try parser.parseUnescapedString(), !digits.isEmpty else { return nil }
                id = parser.withBytes(at: digits) { bytes in
                    uuid(utf8: bytes) ?? derivedUUID(of: String(decoding: bytes, as: UTF8.self))
                }
            case 4 where parser.isText("type", at: key):
                guard isString else { return nil }
                type = try parser.parseString()
            case 9 where parser.isText("timestamp", at: key):
                guard isString, let text = try parser.parseUnescapedString(),
                    let date = parser.withBytes(at: text, ISO8601Text.date(utf8:))
                else { return nil }
                timestamp = date
            case 9 where parser.isText("sessionID", at: key):
                guard isString else { return nil }
                sessionID = try parser.parseString()
            case 11 where parser.isText("anonymousID", at: key):
                guard isString else { return nil }
                anonymousID = try parser.parseString()
            case 6 where parser.isText("userID", at: key):
                guard isString else { return nil }
                userID = try parser.parseString()
            case 10 where parser.isText("properties", at: key):
                switch try parser.parseValue(depth: 1) {
                case .object(let members): properties = members
                case .null: properties = [:]
                default: return nil
                }
            default:
                return nil
            }
            if try parser.consume(UInt8(ascii: ",")) { continue }
            try parser.expect(UInt8(ascii: "}"), "',' or '}' in an object")
            break
        }
        guard let id, let type, let timestamp else { return nil }
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
}
