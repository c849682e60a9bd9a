import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests under an ``OutgoingRequestPolicy``: the one way the package talks HTTP.
///
/// All requests of one client share a `URLSession`, so they reuse its keep-alive connections. On Linux,
/// FoundationNetworking runs URLSession over libcurl, and libcurl resends a request by itself, on a fresh
/// connection, when a reused connection closes before the first byte of the response; it cannot rewind a body given
/// as `Data`, so the resend carries the headers with the full `Content-Length` and no body, and would hang until the
/// timeout. libcurl asks for a new body stream just before that resend: the client answers none and cancels the
/// request at once, which ends as a `connectionLost` failure (the caller's retry then goes out on a fresh
/// connection). The collector sees only the headers of the abandoned resend, on a connection closed at once.
///
/// The body is collected as it arrives and the request is cancelled as soon as it passes the policy's
/// ``OutgoingRequestPolicy/maximumResponseBytes`` (or a declared `Content-Length` does), and when the policy's
/// ``OutgoingRequestPolicy/deadline`` passes, however steadily bytes arrive.
// @unchecked: all stored properties are lets; URLSession is thread-safe, and some SDKs do not mark it Sendable.
package final class OutgoingHTTPClient: @unchecked Sendable {
    /// The rules the requests obey.
    package let policy: OutgoingRequestPolicy
    /// The session every request goes through, and so the pool of connections they reuse.
    private let session: URLSession
    /// Routes the session's delegate calls to the request they belong to.
    private let requests: OutgoingSessionDelegate

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
        self.session = URLSession(configuration: configuration, delegate: requests, delegateQueue: nil)
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
        var request = request
        request.timeoutInterval = policy.timeout.timeInterval
        let follows = policy.followsRedirects && !OutgoingRequestPolicy.carriesCredentials(request)
        let delegate = OutgoingRequestDelegate(
            maximumBytes: policy.maximumResponseBytes,
            followsRedirects: follows,
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
        // Only libcurl's resend after a reused connection closed asks for this: the body is `Data`, which it cannot
        // rewind. No stream (a stream for a `Data` body stops FoundationNetworking), and the request is cancelled.
        completionHandler(nil)
        guard let request = request(for: task), request.stop(.connectionClosedBeforeAnswer) else { return }
        // Not from here: FoundationNetworking calls this on the queue that `cancel()` waits for.
        DispatchQueue.global().async { [weak task] in task?.cancel() }
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
        /// A reused connection closed without an answer, and libcurl was about to resend the request bodiless.
        case connectionClosedBeforeAnswer
    }

    private struct State {
        var body = Data()
        var stopped: StopReason?
        var completion: (@Sendable (TransportResponse) -> Void)?
    }

    private let maximumBytes: Int
    private let followsRedirects: Bool
    private let state: Mutex<State>

    init(maximumBytes: Int, followsRedirects: Bool, completion: @escaping @Sendable (TransportResponse) -> Void) {
        self.maximumBytes = maximumBytes
        self.followsRedirects = followsRedirects
        self.state = Mutex(State(completion: completion))
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
            !OutgoingRequestPolicy.carriesCredentials(request)
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
            return completionHandler(.cancel)
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
        if overflow { dataTask.cancel() }
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
        completion(Self.response(task: task, error: error, body: body, stopped: stopped))
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
        case .connectionClosedBeforeAnswer:
            return .failed(
                TransportFailure(kind: .connectionLost, message: "the connection closed without an answer")
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
