#if canImport(FoundationNetworking) && canImport(Glibc)
import Foundation
import Synchronization

/// One HTTP exchange run on a libcurl easy handle, on the calling thread, under hard limits: the way
/// ``OutgoingHTTPClient`` talks HTTP on Linux.
///
/// FoundationNetworking turns libcurl's content decoding on for every request and gives its delegate no way to stop
/// a read: a 64 KB zstd answer inflated to 2 GiB inside one read, and a 3xx answer's body was inflated into memory
/// whole before any delegate call. Here libcurl decodes nothing: the request says `Accept-Encoding: identity`, an
/// answer that is encoded anyway is refused at its headers, and the write callback refuses the byte past the limit,
/// which ends the read at once. The memory an answer takes is its limit, whatever the server sends.
///
/// The callbacks reach the transfer through the pointer libcurl hands back (`Unmanaged`, unretained): the transfer
/// outlives `perform`, which is the only time libcurl calls them.
final class CurlTransfer {
    /// Why a transfer stopped before libcurl finished it.
    enum Stop: Equatable {
        case tooLarge(limit: Int)
        case encoded(String)
        case idle(Duration)
        case deadline(Duration)
    }

    /// What a finished exchange produced.
    struct Outcome {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    private let library: CurlLibrary
    private let maximumBytes: Int
    private let idleTimeout: Duration
    private let deadline: ContinuousClock.Instant
    private let deadlineLength: Duration
    private var body = Data()
    private var headers: [String: String] = [:]
    private var stop: Stop?
    private var lastProgress: (bytes: Int64, at: ContinuousClock.Instant)

    init(
        library: CurlLibrary,
        maximumBytes: Int,
        idleTimeout: Duration,
        deadline: ContinuousClock.Instant,
        deadlineLength: Duration
    ) {
        self.library = library
        self.maximumBytes = maximumBytes
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.deadlineLength = deadlineLength
        self.lastProgress = (0, .now)
    }

    /// Runs one request on `handle` (reset first) and returns its answer or why there is none.
    /// - Parameters:
    ///   - handle: An easy handle of the caller's.
    ///   - multi: The multi handle that runs it, and whose connections the next request on it reuses.
    ///   - url: The URL, already checked against the policy.
    ///   - method: The HTTP method.
    ///   - headerLines: The request's headers, each `Name: value`, checked for CR and LF by the caller.
    ///   - body: The request body, sent with its `Content-Length`; nil for none.
    func perform(
        on handle: CurlLibrary.Handle,
        in multi: CurlLibrary.Handle,
        url: URL,
        method: String,
        headerLines: [String],
        body requestBody: Data?
    ) -> Result<Outcome, TransportFailure> {
        let curl = library
        curl.easyReset(handle)
        stop = nil
        guard ContinuousClock.now < deadline else { return .failure(Self.failure(for: .deadline(deadlineLength))) }

        var headerList: OpaquePointer?
        defer { curl.listFreeAll(headerList) }
        for line in headerLines + ["Accept-Encoding: identity", "Expect:"] {
            headerList = line.withCString { curl.listAppend(headerList, $0) }
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = url.absoluteString.withCString { curl.setPointer(handle, CurlNumber.url, $0) }
        _ = curl.setLong(handle, CurlNumber.protocols, CurlNumber.httpAndHTTPS)
        _ = curl.setLong(handle, CurlNumber.redirectProtocols, CurlNumber.httpAndHTTPS)
        _ = curl.setLong(handle, CurlNumber.followLocation, 0)
        _ = curl.setLong(handle, CurlNumber.httpContentDecoding, 0)
        _ = curl.setLong(handle, CurlNumber.noSignal, 1)
        _ = curl.setPointer(handle, CurlNumber.httpHeader, UnsafeRawPointer(headerList))
        _ = curl.setDataCallback(handle, CurlNumber.writeFunction) { bytes, size, count, context in
            CurlTransfer.from(context)?.receive(body: bytes, length: size * count) ?? 0
        }
        _ = curl.setPointer(handle, CurlNumber.writeData, context)
        _ = curl.setDataCallback(handle, CurlNumber.headerFunction) { bytes, size, count, context in
            CurlTransfer.from(context)?.receive(header: bytes, length: size * count) ?? 0
        }
        _ = curl.setPointer(handle, CurlNumber.headerData, context)
        _ = curl.setLong(handle, CurlNumber.noProgress, 0)
        _ = curl.setProgressCallback(handle, CurlNumber.xferInfoFunction) { context, _, received, _, sent in
            CurlTransfer.from(context)?.checkProgress(bytes: received + sent) == true ? 0 : 1
        }
        _ = curl.setPointer(handle, CurlNumber.xferInfoData, context)
        // The idle and total deadlines are checked by `run` to the millisecond; libcurl's own timeouts stay off,
        // but for the connection's, which is the idle one.
        _ = curl.setLong(handle, CurlNumber.connectTimeoutMilliseconds, Self.milliseconds(idleTimeout))

        switch method {
        case "GET" where requestBody == nil:
            _ = curl.setLong(handle, CurlNumber.httpGet, 1)
        case "HEAD":
            _ = curl.setLong(handle, CurlNumber.noBody, 1)
        default:
            let bytes = requestBody ?? Data()
            _ = curl.setLong(handle, CurlNumber.post, 1)
            _ = curl.setLong(handle, CurlNumber.postFieldSizeLarge, bytes.count)
            // Copied by libcurl, which can then resend the whole body when a reused connection drops unanswered.
            if bytes.isEmpty {
                _ = "".withCString { curl.setPointer(handle, CurlNumber.copyPostFields, $0) }
            } else {
                _ = bytes.withUnsafeBytes { curl.setPointer(handle, CurlNumber.copyPostFields, $0.baseAddress) }
            }
            if method != "POST" {
                _ = method.withCString { curl.setPointer(handle, CurlNumber.customRequest, $0) }
            }
        }

        lastProgress = (0, .now)
        let code = run(handle, in: multi)
        // The handle keeps pointers to this transfer and to the header list: clear them before either goes away.
        _ = curl.setPointer(handle, CurlNumber.httpHeader, nil)
        if let stop { return .failure(Self.failure(for: stop)) }
        guard code == 0 else { return .failure(Self.failure(curlCode: code, idleTimeout: idleTimeout)) }
        var status = 0
        _ = curl.getLong(handle, CurlNumber.responseCodeInfo, &status)
        return .success(Outcome(status: status, headers: headers, body: body))
    }

    /// Drives the transfer until it ends, waking when libcurl has work or the idle or total deadline comes due;
    /// returns libcurl's result code for it.
    private func run(_ easy: CurlLibrary.Handle, in multi: CurlLibrary.Handle) -> Int32 {
        let curl = library
        guard curl.multiAdd(multi, easy) == 0 else { return -1 }
        defer { _ = curl.multiRemove(multi, easy) }
        var running: Int32 = 1
        while true {
            guard curl.multiPerform(multi, &running) == 0 else { return -1 }
            if running == 0 { break }
            let now = ContinuousClock.now
            guard checkTime(now: now) else { return -1 }
            let due = min(now.duration(to: deadline), now.duration(to: lastProgress.at.advanced(by: idleTimeout)))
            _ = curl.multiWait(multi, nil, 0, Int32(min(1000, Self.milliseconds(due))), nil)
        }
        var queued: Int32 = 0
        while let message = curl.multiInfoRead(multi, &queued) {
            // CURLMSG_DONE is 1; the message's result follows its kind and its easy handle.
            if message.load(as: Int32.self) == 1 { return message.load(fromByteOffset: 16, as: Int32.self) }
        }
        return -1
    }

    // MARK: Callbacks

    /// The transfer a callback's context pointer names (see the type's documentation).
    private static func from(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
        context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Takes a piece of the body; returns `length` to go on, 0 to stop (past the limit).
    private func receive(body bytes: UnsafeMutablePointer<CChar>?, length: Int) -> Int {
        guard stop == nil, let bytes else { return 0 }
        guard body.count + length <= maximumBytes else {
            stop = .tooLarge(limit: maximumBytes)
            body = Data()
            return 0
        }
        body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length)
        return length
    }

    /// Takes a header line; returns `length` to go on, 0 to stop (an encoded or oversized answer).
    private func receive(header bytes: UnsafeMutablePointer<CChar>?, length: Int) -> Int {
        guard let bytes else { return 0 }
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        return receive(headerLine: line) ? length : 0
    }

    /// Takes one header line; false stops the transfer.
    private func receive(headerLine line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new status line (after an interim 1xx answer): its headers replace the ones before.
            headers = [:]
            return true
        }
        if trimmed.isEmpty {
            return checkHeadersComplete()
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return true }
        let name = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        if let earlier = headers[name] {
            headers[name] = earlier + ", " + value
        } else {
            headers[name] = value
        }
        return true
    }

    /// The end of a header block: refuses an encoded answer, or one that declares more than the limit.
    private func checkHeadersComplete() -> Bool {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        if let encoding = lowered["content-encoding"], !encoding.isEmpty, encoding.lowercased() != "identity" {
            stop = .encoded(encoding)
            return false
        }
        if let declared = lowered["content-length"].flatMap({ Int64($0) }), declared > Int64(maximumBytes) {
            stop = .tooLarge(limit: maximumBytes)
            return false
        }
        return true
    }

    /// Notes progress each time libcurl reports it, and checks the deadlines; false stops the transfer.
    private func checkProgress(bytes: Int64) -> Bool {
        let now = ContinuousClock.now
        if bytes != lastProgress.bytes { lastProgress = (bytes, now) }
        return checkTime(now: now)
    }

    /// The idle and total deadlines; false (with the reason recorded) when one has passed.
    private func checkTime(now: ContinuousClock.Instant) -> Bool {
        if stop != nil { return false }
        if now >= deadline {
            stop = .deadline(deadlineLength)
        } else if lastProgress.at.duration(to: now) >= idleTimeout {
            stop = .idle(idleTimeout)
        }
        return stop == nil
    }

    // MARK: Failures

    static func failure(for stop: Stop) -> TransportFailure {
        switch stop {
        case .tooLarge(let limit):
            TransportFailure(kind: .other, message: "the response is larger than \(limit) bytes")
        case .encoded(let encoding):
            TransportFailure(
                kind: .other,
                message: "the response is encoded as \(String(encoding.prefix(40))), and only identity was accepted"
            )
        case .idle(let timeout):
            TransportFailure(kind: .timedOut, message: "no bytes arrived for \(timeout)")
        case .deadline(let deadline):
            TransportFailure(kind: .timedOut, message: "the response did not complete within \(deadline)")
        }
    }

    private static func failure(curlCode code: Int32, idleTimeout: Duration) -> TransportFailure {
        switch code {
        case 28:  // CURLE_OPERATION_TIMEDOUT: the connect timeout, the only libcurl timeout set.
            TransportFailure(kind: .timedOut, message: "could not connect within \(idleTimeout)")
        case 5, 6, 7:  // could not resolve the proxy or the host, could not connect
            TransportFailure(kind: .cannotConnect, message: "could not connect (libcurl error \(code))")
        case 8, 18, 52, 55, 56:  // weird reply, partial body, nothing, send or receive error
            TransportFailure(kind: .connectionLost, message: "the connection closed early (libcurl error \(code))")
        default:
            TransportFailure(kind: .other, message: "libcurl error \(code)")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64(Int.max / 1000 - 1) else { return Int.max / 2 }
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
#endif
