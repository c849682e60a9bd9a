import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSession` that ``HTTPEventTransport`` sends each request through.
///
/// On Apple platforms one session serves every request and keeps its connections alive.
///
/// On Linux, FoundationNetworking runs URLSession over libcurl, and libcurl resends a request by itself when a
/// reused keep-alive connection closes before the first byte of the response (a server dropping the connection,
/// or closing an idle one just as the request goes out). To resend, libcurl asks URLSession to rewind the request
/// body; for a body given as `Data`, FoundationNetworking cannot, yet reports success. So the resend carries the
/// headers with the full `Content-Length` and no body, the server waits for a body that never comes, and the
/// request ends `timedOut` after the whole timeout (30 s by default), while the collector has seen a request
/// without its body. libcurl resends only on reused connections, so here each request gets a session of its own,
/// and so a fresh connection: a drop then ends the request at once as `networkConnectionLost`, which the uploader
/// retries on its backoff schedule. The cost is one connection set-up per batch, at most a few per second.
// @unchecked: both stored properties are lets. URLSession is thread-safe; the configuration is never mutated after
// init (it is copied into each new session), and some SDKs do not mark URLSessionConfiguration Sendable.
final class SessionSource: @unchecked Sendable {
    private let configuration: URLSessionConfiguration
    private let shared: URLSession?

    init(configuration: URLSessionConfiguration) {
        self.configuration = configuration
        #if canImport(FoundationNetworking)
        shared = nil
        #else
        shared = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        #endif
    }

    deinit {
        shared?.finishTasksAndInvalidate()
    }

    /// Sends a request and returns its response body and response.
    /// - Parameter request: The request.
    /// - Returns: The body and the response.
    /// - Throws: `URLError` when no response arrived.
    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        if let shared { return try await shared.data(for: request) }
        let session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await session.data(for: request)
    }
}
