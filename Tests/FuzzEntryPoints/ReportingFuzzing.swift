import ActuateReporting
import Foundation

/// The entry points of the reporting libFuzzer targets in `Tests/Fuzz`, and of the regression tests that replay
/// their corpora. Each feeds arbitrary bytes to code that reads untrusted input and must return, whatever the
/// bytes. They live in `ActuateFuzzEntryPoints`, a target in no product, and reach the module's `package`
/// declarations, so neither they nor what they call are part of the public API or of what ships.
package enum ReportingFuzzing {
    /// What ``journalRecord(_:)`` found, for the corpus replay tests.
    package struct JournalOutcome: Sendable, Hashable {
        /// Valid records the scanner found in the bytes read as a whole journal file.
        package var recordsScanned: Int
        /// Whether the bytes decode as one event payload.
        package var decodesAsEvent: Bool
        /// Events the store returned after opening the bytes as a segment file.
        package var eventsRecovered: Int
        /// Whether the store reported damage when it opened.
        package var damageReported: Bool
    }

    /// Journal bytes, read every way the store reads them.
    ///
    /// The bytes are scanned as a journal file, every valid record in them is decoded by kind, and the whole
    /// input is decoded as an event, a tombstone and a dead-letter payload. Then a store is opened on a
    /// directory holding the bytes as a segment file, a second segment of records sealed with valid checksums
    /// whose kinds, sequences and payloads come from the bytes (so that the fuzzer reaches recovery with records
    /// that pass the checksum), and the bytes followed by those records as the dead-letter file; its events are
    /// fetched, one is moved to the dead-letter file, the dead letters are read, an event is appended, all are
    /// removed, and the store is closed.
    ///
    /// - Parameter data: Arbitrary bytes.
    /// - Returns: What was found.
    @discardableResult
    package static func journalRecord(_ data: Data) -> JournalOutcome {
        let bytes = [UInt8](data)
        var outcome = JournalOutcome(
            recordsScanned: 0,
            decodesAsEvent: false,
            eventsRecovered: 0,
            damageReported: false
        )
        bytes.withUnsafeBytes { raw in
            _ = JournalScanner.scan(raw, maxPayload: Int(Int32.max)) { record in
                outcome.recordsScanned += 1
                decodePayload(UnsafeRawBufferPointer(rebasing: raw[record.payload]), as: record.kind)
            }
            outcome.decodesAsEvent = decodePayload(raw, as: .event)
            decodePayload(raw, as: .tombstone)
            decodePayload(raw, as: .deadLetter)
        }
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "actuate-fuzz-journal-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: directory.appending(path: JournalFiles.fileName(ofSegment: 1)))
            let sealed = sealedSegment(from: bytes)
            try Data(sealed).write(to: directory.appending(path: JournalFiles.fileName(ofSegment: 2)))
            try Data(bytes + sealed).write(to: directory.appending(path: JournalFiles.deadLetterFileName))
            let configuration = FileEventStoreConfiguration(
                durability: .synced,
                segmentSize: 64 << 10,
                maxTotalBytes: 1 << 20
            )
            let store = try FileEventStore(directory: directory, configuration: configuration)
            outcome.damageReported = !store.recoveryReport.isClean
            let events = (try? store.fetch(count: 1000, maxBytes: 1 << 20)) ?? []
            outcome.eventsRecovered = events.count
            _ = try? store.moveToDeadLetter(ids: Set(events.prefix(1).map(\.id)), reason: "fuzz")
            _ = try? store.deadLetters()
            let probe = fuzzEvent()
            try? store.append(probe)
            try? store.remove(ids: Set(events.map(\.id)).union([probe.id]))
            try? store.close()
        } catch {
            // A store that refuses to open on these bytes has reported a clear error: that is a pass.
        }
        return outcome
    }

    /// A collector's response to an upload, classified and acted on as the uploader acts on it.
    ///
    /// The bytes are read as an HTTP response: a status line (`HTTP/1.1 503 Slow down`), header lines
    /// (`Retry-After: 2`) up to an empty line, then the body. A first line `failed KIND` stands for a transport
    /// failure of that kind instead. The response is classified, then handed to an upload state machine with a
    /// batch of three events in flight, twice (the second time as a retry of the same batch), and the decision is
    /// checked: every delay lies within the retry policy's bounds, and only a 2xx acknowledges events.
    ///
    /// - Parameter data: Arbitrary bytes.
    /// - Returns: A short description of the class and of the first decision, such as
    ///   `throttled pause 2.0 seconds`.
    @discardableResult
    package static func uploadResponse(_ data: Data) -> String {
        let response = transportResponse(parsing: data)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let policy = UploadRetryPolicy()
        let responseClass = ResponseClassifier.classify(response, now: now)
        var machine = UploadStateMachine(policy: policy)
        let batch = (0..<3).map { _ in fuzzEvent() }
        machine.begin(batch)
        let random = Double(data.first ?? 128) / 256
        var decisions: [UploadDecision] = []
        for _ in 0..<2 {
            let decision = machine.handle(response, now: now, random: random)
            check(decision, for: response, policy: policy)
            decisions.append(decision)
            if machine.currentBatch == nil { machine.begin(batch) }
        }
        _ = UploadResult(eventCount: batch.count, response: response, decision: decisions[0])
        return "\(name(of: responseClass)) \(describe(decisions[0]))"
    }

    /// An event with a fresh id, to append or to put in flight.
    private static func fuzzEvent() -> ReportEvent {
        ReportEvent(type: "fuzz", timestamp: Date(timeIntervalSince1970: 0), sessionID: "fuzz", anonymousID: "fuzz")
    }

    // MARK: Journal helpers

    /// Decodes `payload` as the payload of a record of `kind`, as recovery, fetching and dead-letter reading do.
    /// - Returns: Whether it decoded.
    @discardableResult
    private static func decodePayload(_ payload: UnsafeRawBufferPointer, as kind: JournalRecordKind) -> Bool {
        switch kind {
        case .segmentHeader:
            return true
        case .event:
            _ = ReportEventCodec.id(in: payload)
            var reader = JournalByteReader(payload)
            return (try? ReportEventCodec.decode(from: &reader)) != nil
        case .tombstone:
            return (try? JournalTombstone.decode(payload)) != nil
        case .deadLetter:
            var reader = JournalByteReader(payload)
            guard (try? ReportEventCodec.decode(from: &reader)) != nil else { return false }
            return (try? reader.string()) != nil
        }
    }

    /// A segment whose records pass their checksums: a header, then up to 64 records read from `bytes`, each as
    /// a kind (one byte), a sequence (eight bytes, little-endian), a payload length (two bytes, little-endian) and
    /// the payload, so that the fuzzer builds records of every kind that recovery accepts as intact.
    private static func sealedSegment(from bytes: [UInt8]) -> [UInt8] {
        var segment: [UInt8] = []
        JournalRecord.append(kind: .segmentHeader, sequence: 1, to: &segment) { _ in }
        var rest = bytes[...]
        var records = 0
        while let kindByte = rest.first, records < 64 {
            rest = rest.dropFirst()
            let kind = JournalRecordKind(rawValue: kindByte % 4 + 1) ?? .event
            let sequence = littleEndian(rest.prefix(8))
            rest = rest.dropFirst(8)
            let length = Int(littleEndian(rest.prefix(2)))
            rest = rest.dropFirst(2)
            let payload = rest.prefix(length)
            rest = rest.dropFirst(length)
            JournalRecord.append(kind: kind, sequence: sequence, to: &segment) { $0.append(contentsOf: payload) }
            records += 1
        }
        return segment
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.enumerated().reduce(0) { value, element in value | UInt64(element.element) << (8 * element.offset) }
    }

    // MARK: Upload response helpers

    /// The response that `data` describes (see ``uploadResponse(_:)``).
    private static func transportResponse(parsing data: Data) -> TransportResponse {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        let statusLine = (lines.next() ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let words = statusLine.split(separator: " ", omittingEmptySubsequences: true)
        if words.first == "failed" {
            let kind = words.dropFirst().first.flatMap { TransportFailure.Kind(rawValue: String($0)) } ?? .other
            return .failed(TransportFailure(kind: kind, message: "fuzz"))
        }
        guard words.count >= 2, let status = Int(words[1]) else {
            return .failed(TransportFailure(kind: .connectionLost, message: "no status line"))
        }
        var headers: [String: String] = [:]
        var bodyLines: [Substring] = []
        var inBody = false
        while let line = lines.next() {
            if inBody {
                bodyLines.append(line)
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                inBody = true
                continue
            }
            let (name, _, value) = split(trimmed, at: ":")
            headers[name.trimmingCharacters(in: .whitespaces)] = value.trimmingCharacters(in: .whitespaces)
        }
        let body = Data(bodyLines.joined(separator: "\n").utf8)
        return .http(HTTPResponse(statusCode: status, headers: headers, body: body))
    }

    private static func split(_ text: String, at separator: Character) -> (String, Character?, String) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil, "") }
        return (String(text[..<index]), separator, String(text[text.index(after: index)...]))
    }

    /// Stops the fuzzer, as a crash it reports, when a decision breaks the uploader's rules.
    private static func check(_ decision: UploadDecision, for response: TransportResponse, policy: UploadRetryPolicy) {
        let longest = max(policy.backoffMaximum, policy.maxRetryAfter, policy.backoffBase)
        switch decision {
        case .acknowledge(let ids):
            guard case .http(let http) = response, (200..<300).contains(http.statusCode), !ids.isEmpty else {
                preconditionFailure("only a 2xx response may acknowledge events")
            }
        case .retry(let delay, _), .pause(let delay, _), .split(let delay):
            precondition(delay >= .zero && delay <= longest, "a delay of \(delay) is outside the policy's bounds")
        case .deadLetter:
            break
        }
    }

    private static func name(of responseClass: ResponseClass) -> String {
        switch responseClass {
        case .acknowledged: "acknowledged"
        case .retryable: "retryable"
        case .throttled: "throttled"
        case .tooLarge: "tooLarge"
        case .misconfigured: "misconfigured"
        case .rejected: "rejected"
        }
    }

    private static func describe(_ decision: UploadDecision) -> String {
        switch decision {
        case .acknowledge(let ids): "acknowledge \(ids.count)"
        case .deadLetter(let ids, _): "deadLetter \(ids.count)"
        case .split: "split"
        case .retry(let delay, _): "retry \(delay)"
        case .pause(let delay, _): "pause \(delay)"
        }
    }
}
