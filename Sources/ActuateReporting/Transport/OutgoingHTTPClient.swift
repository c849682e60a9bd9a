import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests under an ``OutgoingRequestPolicy``: the one way the package talks HTTP.
///
/// Every header, the session's and the request's own, is checked first: a name that is not an HTTP token or a value
/// with a control character is refused with a clear failure, so no CR or LF can start a header of its own.
///
/// On Linux the client drives libcurl itself (``CurlHTTPSession``, ``CurlTransfer``), the library FoundationNetworking
/// runs on: FoundationNetworking turns libcurl's content decoding on for every request and gives its delegate no way
/// to stop a read, so a 64 KB zstd answer inflated to 2 GiB in memory before any limit could act, and a 3xx answer's
/// body was inflated whole before any delegate call. Here each request asks for `Accept-Encoding: identity`, libcurl
/// decodes nothing, an encoded answer is refused at its headers, and the byte past the limit ends the read: an
/// answer never takes more memory than ``OutgoingRequestPolicy/maximumResponseBytes``. Kept-alive connections are
/// reused across requests, and a body is handed to libcurl whole, so its resend after a reused connection drops
/// unanswered is whole too. Redirects are followed by the client, hop by hop, under the policy.
///
/// On Apple platforms (and on Linux only if libcurl cannot be loaded) the client uses `URLSession`: all requests of
/// one client share a session, so they reuse its keep-alive connections. A body is sent as a stream, and the
/// session is handed a new stream over the same bytes when it asks for one, so a resend is whole. A request with a
/// body never follows a redirect (the 3xx answer is the answer), so no body is sent to a second host. The body is
/// collected as it arrives and the request is cancelled as soon as it passes the limit (or a declared
/// `Content-Length` does), and when the policy's ``OutgoingRequestPolicy/deadline`` passes, however steadily bytes
/// arrive. The limit counts decoded bytes there; how far Apple's URLSession inflates a compressed answer before the
/// cancel lands could not be tried here.
// @unchecked: all stored properties are lets; URLSession is thread-safe, and some SDKs do not mark it Sendable.
package final class OutgoingHTTPClient: @unchecked Sendable {
    /// The rules the requests obey.
    package let policy: OutgoingRequestPolicy
    /// The session every request goes through, and so the pool of connections they reuse.
    fileprivate let session: URLSession
    /// Routes the session's delegate calls to the request they belong to.
    private let requests: OutgoingSessionDelegate
    #if canImport(FoundationNetworking) && canImport(Glibc)
    /// The transport every request takes on Linux (see the type's documentation); nil only when libcurl cannot be
    /// loaded, and then FoundationNetworking's `URLSession` is used.
    private let curl: CurlHTTPSession?
    #endif

    /// Creates a client.
    /// - Parameters:
    ///   - policy: The rules the requests obey.
    ///   - configuration: The session configuration to start from (`.ephemeral` by default); the client sets its
    ///     timeouts and turns off cookies and caching on a copy.
    package init(policy: OutgoingRequestPolicy, configuration: URLSessionConfiguration = .ephemeral) {
        self.policy = policy
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
        configuration.timeoutIntervalForRequest = policy.timeout.timeInterval
        configuration.timeoutIntervalForResource = policy.deadline.timeInterval
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let requests = OutgoingSessionDelegate()
        self.requests = requests
        #if canImport(FoundationNetworking) && canImport(Glibc)
        self.curl = CurlLibrary.shared.map(CurlHTTPSession.init(library:))
        #endif
        self.session = URLSession(
            configuration: configuration,
            delegate: requests,
            delegateQueue: Self.delegateQueue()
        )
    }

    /// The session's delegate queue: on Linux an ``InlineDelegateQueue``, so that a response's pieces are counted
    /// against the limit as libcurl decodes them; elsewhere the system's own serial queue (nil). Apple's URLSession
    /// decodes in its own process and hands pieces over as the delegate takes them; that it keeps memory bounded
    /// for a compressed answer is Apple's behaviour, not tried here (no Apple platform runs these tests).
    private static func delegateQueue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
        let queue = InlineDelegateQueue()
        queue.name = "Actuate.OutgoingHTTPClient.delegate"
        return queue
        #else
        return nil
        #endif
    }

    deinit {
        // The session holds its delegate until it is invalidated; requests in flight still complete.
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and waits for the response.
    /// - Parameter request: The request; its URL must obey the policy.
    /// - Returns: The response, whatever its status, or why there is none.
    package func send(_ request: URLRequest) async -> TransportResponse {
        await withCheckedContinuation { continuation in
            send(request) { continuation.resume(returning: $0) }
        }
    }

    /// Sends `request` and calls `completion` once, on a queue of the client's, with the response.
    /// - Parameters:
    ///   - request: The request; its URL must obey the policy.
    ///   - completion: Receives the response, whatever its status, or why there is none.
    package func send(_ request: URLRequest, completion: @escaping @Sendable (TransportResponse) -> Void) {
        guard let url = request.url else {
            return completion(.failed(TransportFailure(kind: .other, message: "the request has no URL")))
        }
        if let problem = OutgoingRequestPolicy.problem(with: url) {
            return completion(.failed(TransportFailure(kind: .other, message: "the URL is refused: \(problem.reason)")))
        }
        for header in sentHeaders(of: request) {
            // A CR or LF would end the line early and start a header of the sender's choosing.
            if let problem = OutgoingRequestPolicy.headerNameProblem(header.name)
                ?? OutgoingRequestPolicy.headerValueProblem(header.value)
            {
                let shown = header.name.unicodeScalars.prefix(40).map {
                    $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?"
                }
                let message = "the header \(String(shown)) cannot be sent: \(problem)"
                return completion(.failed(TransportFailure(kind: .other, message: message)))
            }
        }
        var request = request
        request.timeoutInterval = policy.timeout.timeInterval
        #if canImport(FoundationNetworking) && canImport(Glibc)
        if let curl {
            return sendThroughCurl(request, session: curl, completion: completion)
        }
        #endif
        let body = request.httpBody
        if let body {
            // A stream, so that libcurl can rewind it for a resend (see the type's documentation).
            request.httpBody = nil
            request.httpBodyStream = InputStream(data: body)
        }
        let follows =
            policy.followsRedirects && body == nil && request.httpBodyStream == nil
            && !OutgoingRequestPolicy.carriesCredentials(
                request,
                sessionHeaders: session.configuration.httpAdditionalHeaders
            )
        let delegate = OutgoingRequestDelegate(
            maximumBytes: policy.maximumResponseBytes,
            followsRedirects: follows,
            body: body,
            completion: completion
        )
        let task = session.dataTask(with: request)
        requests.register(delegate, for: task)
        let deadline = policy.deadline
        // The total deadline: URLSession's resource timeout is not honoured everywhere (FoundationNetworking), so
        // the client cancels the task itself. A network deadline is real time by nature, like the idle timeout.
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline.timeInterval) { [weak task] in
            guard let task else { return }
            if delegate.stop(.deadline(deadline)) { task.cancel() }
        }
        task.resume()
    }
}

#if canImport(FoundationNetworking) && canImport(Glibc)
extension OutgoingHTTPClient {
    /// Sends `request` through libcurl directly, with the session's headers, under the policy.
    fileprivate func sendThroughCurl(
        _ request: URLRequest,
        session curl: CurlHTTPSession,
        completion: @escaping @Sendable (TransportResponse) -> Void
    ) {
        var headers = sentHeaders(of: request)
        // libcurl writes these itself from the body it sends and the encodings the client accepts.
        let managed: Set<String> = ["accept-encoding", "content-length", "expect", "transfer-encoding"]
        headers.removeAll { managed.contains($0.name.lowercased()) }
        let follows =
            policy.followsRedirects && request.httpBody == nil && request.httpBodyStream == nil
            && !OutgoingRequestPolicy.carriesCredentials(
                request,
                sessionHeaders: session.configuration.httpAdditionalHeaders
            )
        curl.send(
            request,
            headerLines: headers.map { "\($0.name): \($0.value)" },
            policy: policy,
            followsRedirects: follows,
            completion: completion
        )
    }
}
#endif

extension OutgoingHTTPClient {
    /// The headers `request` goes out with: the session's, then the request's own in their place.
    fileprivate func sentHeaders(of request: URLRequest) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for (key, value) in session.configuration.httpAdditionalHeaders ?? [:] {
            guard let name = key as? String else { continue }
            headers.append((name, String(describing: value)))
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            headers.append((name, value))
        }
        return headers
    }
}

/// The delegate of an ``OutgoingHTTPClient``'s session: hands each call to the ``OutgoingRequestDelegate`` of the
/// task it is about, and turns libcurl's bodiless resend into an immediate connection failure.
final class OutgoingSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let requests = Mutex<[Int: OutgoingRequestDelegate]>([:])

    /// Routes `task`'s calls to `request` until the task completes; call it before resuming the task.
    func register(_ request: OutgoingRequestDelegate, for task: URLSessionTask) {
        requests.withLock { $0[task.taskIdentifier] = request }
    }

    private func request(for task: URLSessionTask) -> OutgoingRequestDelegate? {
        requests.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        // libcurl's resend after a reused connection closed without an answer: the same bytes again, from the start.
        completionHandler(request(for: task)?.newBodyStream())
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let delegate = self.request(for: task) else { return completionHandler(nil) }
        delegate.urlSession(
            session,
            task: task,
            willPerformHTTPRedirection: response,
            newRequest: request,
            completionHandler: completionHandler
        )
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let delegate = request(for: dataTask) else { return completionHandler(.cancel) }
        delegate.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        request(for: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let delegate = requests.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        delegate?.urlSession(session, task: task, didCompleteWithError: error)
    }
}

/// Collects one request's response for ``OutgoingHTTPClient`` and enforces its limits; ``OutgoingSessionDelegate``
/// hands it the calls about its task.
final class OutgoingRequestDelegate: NSObject, URLSessionDataDelegate, Sendable {
    enum StopReason: Sendable {
        case tooLarge(limit: Int)
        case deadline(Duration)
    }

    private struct State {
        var body = Data()
        var stopped: StopReason?
        var completion: (@Sendable (TransportResponse) -> Void)?
    }

    private let maximumBytes: Int
    private let followsRedirects: Bool
    /// The request's body, for a new stream over it when libcurl resends the request.
    private let body: Data?
    private let state: Mutex<State>

    init(
        maximumBytes: Int,
        followsRedirects: Bool,
        body: Data?,
        completion: @escaping @Sendable (TransportResponse) -> Void
    ) {
        self.maximumBytes = maximumBytes
        self.followsRedirects = followsRedirects
        self.body = body
        self.state = Mutex(State(completion: completion))
    }

    /// A stream over the whole body, from its first byte; nil for a request without one.
    func newBodyStream() -> InputStream? {
        body.map { InputStream(data: $0) }
    }

    /// Records why the request stops early; false when it already stopped or finished.
    func stop(_ reason: StopReason) -> Bool {
        state.withLock { state in
            guard state.stopped == nil, state.completion != nil else { return false }
            state.stopped = reason
            return true
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard followsRedirects, let url = request.url, OutgoingRequestPolicy.problem(with: url) == nil,
            !OutgoingRequestPolicy.carriesCredentials(
                request,
                sessionHeaders: session.configuration.httpAdditionalHeaders
            )
        else {
            // Not followed: the 3xx response itself completes the task.
            return completionHandler(nil)
        }
        state.withLock { $0.body = Data() }
        completionHandler(request)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let declared = response.expectedContentLength
        if declared > Int64(maximumBytes), stop(.tooLarge(limit: maximumBytes)) {
            completionHandler(.cancel)
            // FoundationNetworking ignores the disposition, so the task is cancelled too (not from this queue).
            DispatchQueue.global().async { [weak dataTask] in dataTask?.cancel() }
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = state.withLock { state -> Bool in
            guard state.stopped == nil else { return false }
            guard state.body.count + data.count <= maximumBytes else {
                state.stopped = .tooLarge(limit: maximumBytes)
                state.body = Data()
                return true
            }
            state.body.append(data)
            return false
        }
        // Not from here: with the inline delegate queue this runs on the queue that `cancel()` waits for.
        if overflow { DispatchQueue.global().async { [weak dataTask] in dataTask?.cancel() } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // The delegate lets go of the body once it is handed over: FoundationNetworking may keep a finished
        // session, and with it its delegate, for the life of the process.
        let (completion, body, stopped) = state.withLock { state in
            defer {
                state.completion = nil
                state.body = Data()
            }
            return (state.completion, state.body, state.stopped)
        }
        guard let completion else { return }
        let response = Self.response(task: task, error: error, body: body, stopped: stopped)
        // The caller's code runs off the session's queue, which may be the one its next request needs.
        DispatchQueue.global().async { completion(response) }
    }

    private static func response(
        task: URLSessionTask,
        error: (any Error)?,
        body: Data,
        stopped: StopReason?
    ) -> TransportResponse {
        switch stopped {
        case .tooLarge(let limit):
            return .failed(TransportFailure(kind: .other, message: "the response is larger than \(limit) bytes"))
        case .deadline(let deadline):
            return .failed(
                TransportFailure(kind: .timedOut, message: "the response did not complete within \(deadline)")
            )
        case nil:
            break
        }
        if let error { return .failed(failure(for: error)) }
        guard let http = task.response as? HTTPURLResponse else {
            return .failed(TransportFailure(kind: .other, message: "the response is not an HTTP response"))
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            headers[String(describing: key)] = String(describing: value)
        }
        return .http(HTTPResponse(statusCode: http.statusCode, headers: headers, body: body))
    }

    private static func failure(for error: any Error) -> TransportFailure {
        guard let urlError = error as? URLError else {
            return TransportFailure(kind: .other, message: String(describing: type(of: error)))
        }
        let kind: TransportFailure.Kind
        switch urlError.code {
        case .timedOut:
            kind = .timedOut
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            kind = .connectionLost
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            kind = .cannotConnect
        default:
            kind = .other
        }
        // The code alone: the localized text may quote the request, and the request may carry a key.
        return TransportFailure(kind: kind, message: "URLError \(urlError.code.rawValue)")
    }
}
