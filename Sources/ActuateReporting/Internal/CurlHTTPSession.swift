#if canImport(FoundationNetworking) && canImport(Glibc)
import Foundation
import FoundationNetworking
import Synchronization

/// The Linux transport of an ``OutgoingHTTPClient``: each request runs as a ``CurlTransfer`` on a thread of its own,
/// on an easy handle taken from the session's idle ones, so that requests reuse kept-alive connections as a
/// `URLSession` does.
///
/// Redirects are followed here, not by libcurl, so each hop is checked against the policy: only a request without
/// a body or credentials follows, only to a URL the policy allows, at most ``maximumRedirects`` times, all within
/// the one deadline.
final class CurlHTTPSession: Sendable {
    /// How many redirects one request follows at most (as URLSession).
    static let maximumRedirects = 20
    /// How many idle handles (and so kept-alive connection caches) the session keeps.
    private static let idleHandleLimit = 4

    /// An easy handle and the multi handle that runs it, whose connection cache the next request reuses.
    private struct Handles: @unchecked Sendable {
        // @unchecked: the pair is used by one request at a time; the session's lock hands it over.
        let easy: CurlLibrary.Handle
        let multi: CurlLibrary.Handle
    }

    private let library: CurlLibrary
    private let idle = Mutex<[Handles]>([])

    init(library: CurlLibrary) {
        self.library = library
    }

    deinit {
        for handles in idle.withLock({ $0 }) { cleanUp(handles) }
    }

    /// Sends `request`, following redirects when `followsRedirects` allows, and calls `completion` once from the
    /// request's thread.
    /// - Parameters:
    ///   - request: The request; its URL already obeys the policy, its headers are checked.
    ///   - headerLines: The request's headers with the session's, each `Name: value`.
    ///   - policy: The limits the request obeys.
    ///   - followsRedirects: Whether a 3xx answer is followed (a request without a body or credentials).
    ///   - completion: Receives the answer.
    func send(
        _ request: URLRequest,
        headerLines: [String],
        policy: OutgoingRequestPolicy,
        followsRedirects: Bool,
        completion: @escaping @Sendable (TransportResponse) -> Void
    ) {
        let thread = Thread { [self] in
            completion(self.exchange(request, headerLines: headerLines, policy: policy, follows: followsRedirects))
        }
        thread.name = "Actuate.OutgoingHTTPClient"
        thread.start()
    }

    private func exchange(
        _ request: URLRequest,
        headerLines: [String],
        policy: OutgoingRequestPolicy,
        follows: Bool
    ) -> TransportResponse {
        guard var url = request.url else {
            return .failed(TransportFailure(kind: .other, message: "the request has no URL"))
        }
        var method = request.httpMethod ?? "GET"
        let body = request.httpBody ?? request.httpBodyStream.map(Self.read)
        let deadline = ContinuousClock.now.advanced(by: policy.deadline)
        let handle = takeHandle()
        defer { returnHandle(handle) }
        guard let handle else {
            return .failed(TransportFailure(kind: .other, message: "libcurl could not make a handle"))
        }
        for _ in 0...Self.maximumRedirects {
            let transfer = CurlTransfer(
                library: library,
                maximumBytes: policy.maximumResponseBytes,
                idleTimeout: policy.timeout,
                deadline: deadline,
                deadlineLength: policy.deadline
            )
            let outcome: CurlTransfer.Outcome
            switch transfer.perform(
                on: handle.easy,
                in: handle.multi,
                url: url,
                method: method,
                headerLines: headerLines,
                body: body
            ) {
            case .failure(let failure): return .failed(failure)
            case .success(let value): outcome = value
            }
            let response = HTTPResponse(statusCode: outcome.status, headers: outcome.headers, body: outcome.body)
            guard follows, [301, 302, 303, 307, 308].contains(outcome.status),
                let location = response.value(forHeader: "Location"),
                let target = URL(string: location, relativeTo: url)?.absoluteURL,
                OutgoingRequestPolicy.problem(with: target) == nil
            else { return .http(response) }
            url = target
            if outcome.status == 303, method != "HEAD" { method = "GET" }
        }
        return .failed(TransportFailure(kind: .other, message: "more than \(Self.maximumRedirects) redirects"))
    }

    private func takeHandle() -> Handles? {
        if let handles = idle.withLock({ $0.popLast() }) { return handles }
        guard let easy = library.easyInit() else { return nil }
        guard let multi = library.multiInit() else {
            library.easyCleanup(easy)
            return nil
        }
        return Handles(easy: easy, multi: multi)
    }

    private func returnHandle(_ handles: Handles?) {
        guard let handles else { return }
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < Self.idleHandleLimit else { return false }
            idle.append(handles)
            return true
        }
        if !kept { cleanUp(handles) }
    }

    private func cleanUp(_ handles: Handles) {
        library.easyCleanup(handles.easy)
        _ = library.multiCleanup(handles.multi)
    }

    /// The whole of a body given as a stream (the package's own requests give `Data`).
    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}
#endif
