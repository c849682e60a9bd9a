import Foundation

/// Reads the events of a file as a collector keeps them, a megabyte at a time, never the whole file.
///
/// The file holds JSON objects one after another (whitespace and line ends between them are ignored), each of them
/// either
/// - a batch envelope, `{"batch": [events…], "sentAt": …}`, as a collector receives it in Actuate's or Segment's
///   format (a file may hold one batch, or one per line), or
/// - one event (NDJSON): Actuate's event object, a Segment message, or a row of ``FlatEventRow``.
///
/// When `batch` is an envelope's first member (as Actuate's writers put it) its events are read one by one, so a batch
/// of any size takes one event's memory; otherwise the envelope is read whole. Each event is decoded by
/// ``CollectedEventDecoding``: an event in Actuate's shape straight from the bytes, any other as a dictionary first.
package enum CollectedEventFile {
    /// The bytes read at a time.
    package static let chunkSize = 1 << 20
    /// The largest single event (or envelope read whole) accepted.
    package static let maxValueSize = 512 << 20

    /// Why a file could not be read to its end.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the byte offset where it did.
        package var description: String
    }

    private enum State {
        case topLevel
        case batchElements(first: Bool)
        case envelopeMembers
    }

    private enum StepError: Error {
        case needMore
        case invalid(String)
    }

    /// Calls `body` with every event of the file at `path`, in file order.
    /// - Parameters:
    ///   - path: The file.
    ///   - body: Called once per event.
    /// - Throws: ``Failure`` when the file cannot be opened or read, or is not such JSON; the events before the
    ///   problem have been handed to `body`. Errors from `body` are rethrown.
    package static func forEachEvent(atPath path: String, _ body: (ReportEvent) throws -> Void) throws {
        var decoding = ReportEventDecoding()
        try forEachEvent(atPath: path, decoding: &decoding, body)
    }

    /// Calls `body` with every event of the file at `path`, in file order, as `decoding` decodes it.
    /// - Parameters:
    ///   - path: The file.
    ///   - decoding: How an event becomes what `body` takes.
    ///   - body: Called once per event.
    /// - Throws: ``Failure`` when the file cannot be opened or read, or is not such JSON; the events before the
    ///   problem have been handed to `body`. Errors from `body` are rethrown.
    static func forEachEvent<Decoding: CollectedEventDecodingStrategy>(
        atPath path: String,
        decoding: inout Decoding,
        _ body: (Decoding.Event) throws -> Void
    ) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var start = 0
        var end = 0
        var consumedBefore = 0
        var endOfFile = false
        var state = State.topLevel
        while true {
            // Process everything complete in the window.
            var failure: String?
            var needMore = false
            buffer.withUnsafeBufferPointer { whole in
                let window = UnsafeBufferPointer(rebasing: whole[0..<end])
                do {
                    while true {
                        start = try step(window, from: start, state: &state, decoding: &decoding, body)
                    }
                } catch StepError.needMore {
                    needMore = true
                } catch StepError.invalid(let reason) {
                    failure = reason
                } catch {
                    failure = "\(error)"
                }
            }
            if let failure {
                throw Failure(description: "at byte \(consumedBefore + start): \(failure)")
            }
            precondition(needMore)
            if endOfFile {
                let rest = buffer[start..<end].allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
                guard rest, case .topLevel = state else {
                    throw Failure(description: "at byte \(consumedBefore + start): the file ends inside a value")
                }
                return
            }
            // Keep the unread bytes, grow when one value fills the buffer, and read more.
            if start > 0 {
                buffer.withUnsafeMutableBufferPointer { bytes in
                    guard let base = bytes.baseAddress else { return }
                    memmove(base, base + start, end - start)
                }
                consumedBefore += start
                end -= start
                start = 0
            }
            if end == buffer.count {
                guard buffer.count < maxValueSize else {
                    throw Failure(description: "at byte \(consumedBefore): a value larger than \(maxValueSize) bytes")
                }
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
            let count = buffer.withUnsafeMutableBufferPointer { bytes in
                read(descriptor, bytes.baseAddress! + end, bytes.count - end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: String(cString: strerror(errno)))
            }
            if count == 0 { endOfFile = true }
            end += count
        }
    }

    /// Reads one item (an object head, a batch element, an envelope member) from `position` and returns the
    /// position after it; throws `needMore` when the window ends first.
    private static func step<Decoding: CollectedEventDecodingStrategy>(
        _ window: UnsafeBufferPointer<UInt8>,
        from position: Int,
        state: inout State,
        decoding: inout Decoding,
        _ body: (Decoding.Event) throws -> Void
    ) throws -> Int {
        var parser = JSONBytesParser(window, position: position)
        do throws(JSONBytesParser.Failure) {
            switch state {
            case .topLevel:
                guard try parser.peek() == UInt8(ascii: "{") else {
                    throw .invalid("expected a JSON object (a batch or an event)")
                }
                let objectStart = parser.position
                parser.position += 1
                if try parser.peek() == UInt8(ascii: "\""), try parser.parseString() == "batch" {
                    try parser.expect(UInt8(ascii: ":"), "':'")
                    try parser.expect(UInt8(ascii: "["), "the batch's '['")
                    state = .batchElements(first: true)
                    return parser.position
                }
                parser.position = objectStart
                if try deliverDirectly(&parser, &decoding, body) { return parser.position }
                let object = try parser.parseObject(depth: 1)
                if case .array(let elements)? = object["batch"] {
                    for element in elements {
                        guard case .object(let members) = element else {
                            throw .invalid("a batch element is not an object")
                        }
                        try deliver(decoding.event(try generalEvent(members)), body)
                    }
                } else {
                    try deliver(decoding.event(try generalEvent(object)), body)
                }
                return parser.position
            case .batchElements(let first):
                if try parser.consume(UInt8(ascii: "]")) {
                    state = .envelopeMembers
                    return parser.position
                }
                if !first { try parser.expect(UInt8(ascii: ","), "',' or ']' in the batch") }
                guard try parser.peek() == UInt8(ascii: "{") else { throw .invalid("a batch element is not an object") }
                if try !deliverDirectly(&parser, &decoding, body) {
                    try deliver(decoding.event(try generalEvent(try parser.parseObject(depth: 1))), body)
                }
                state = .batchElements(first: false)
                return parser.position
            case .envelopeMembers:
                if try parser.consume(UInt8(ascii: "}")) {
                    state = .topLevel
                    return parser.position
                }
                try parser.expect(UInt8(ascii: ","), "',' or '}' after the batch")
                let key = try parser.parseString()
                try parser.expect(UInt8(ascii: ":"), "':'")
                if key == "batch" {
                    try parser.expect(UInt8(ascii: "["), "the batch's '['")
                    state = .batchElements(first: true)
                } else {
                    _ = try parser.parseValue(depth: 1)
                }
                return parser.position
            }
        } catch .truncated {
            throw StepError.needMore
        } catch .invalid(let reason) {
            throw StepError.invalid(reason)
        }
    }

    /// Reads an event object whose `{` is next straight from the bytes and hands it to `body`; false, with the
    /// position unchanged, when `decoding` leaves it to the general way. (The event goes to `body` from here rather
    /// than back as an optional: wrapping and unwrapping the large value cost two copies of it an event.)
    private static func deliverDirectly<Decoding: CollectedEventDecodingStrategy>(
        _ parser: inout JSONBytesParser,
        _ decoding: inout Decoding,
        _ body: (Decoding.Event) throws -> Void
    ) throws(JSONBytesParser.Failure) -> Bool {
        let objectStart = parser.position
        let event: Decoding.Event
        do throws(JSONBytesParser.Failure) {
            event = try decoding.event(&parser)
        } catch .truncated {
            throw .truncated
        } catch {
            parser.position = objectStart
            return false
        }
        try deliver(event, body)
        return true
    }

    private static func generalEvent(_ members: [String: JSONValue]) throws(JSONBytesParser.Failure) -> ReportEvent {
        do {
            return try CollectedEventDecoding.event(from: members)
        } catch {
            throw .invalid(error.description)
        }
    }

    private static func deliver<Event>(
        _ event: Event,
        _ body: (Event) throws -> Void
    ) throws(JSONBytesParser.Failure) {
        do {
            try body(event)
        } catch {
            throw .invalid("\(error)")
        }
    }
}

/// How ``CollectedEventFile`` turns an event object into what its caller takes: straight from the bytes where it
/// can, else from the ``ReportEvent`` the general decoder made.
protocol CollectedEventDecodingStrategy {
    /// What the caller takes.
    associatedtype Event

    /// Decodes an event object whose `{` is next straight from the parser's bytes.
    /// - Throws: ``JSONBytesParser/Failure/truncated`` when the window ends inside the object; any other failure
    ///   sends the object to the general decoder, and then to ``event(_:)-(ReportEvent)``.
    mutating func event(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> Event

    /// Converts an event the general decoder made.
    mutating func event(_ event: ReportEvent) -> Event
}

/// Events as ``ReportEvent`` values, for `actuate export` and every caller that wants the whole event.
struct ReportEventDecoding: CollectedEventDecodingStrategy {
    init() {}

    func event(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> ReportEvent {
        try CollectedEventDecoding.actuateEvent(&parser)
    }

    func event(_ event: ReportEvent) -> ReportEvent { event }
}

/// Events as ``StatisticsEvent`` values, their texts numbered in ``texts``.
struct StatisticsEventDecoding: CollectedEventDecodingStrategy {
    /// Where the events' texts are numbered.
    var texts: StatisticsTexts

    init(texts: StatisticsTexts) {
        self.texts = texts
    }

    mutating func event(_ parser: inout JSONBytesParser) throws(JSONBytesParser.Failure) -> StatisticsEvent {
        try CollectedEventDecoding.statisticsEvent(&parser, texts: &texts)
    }

    mutating func event(_ event: ReportEvent) -> StatisticsEvent {
        StatisticsEvent(event, texts: &texts)
    }
}
