import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session delegate of ``HTTPEventTransport``: it refuses every HTTP redirect, so the redirect response itself
/// reaches the uploader.
///
/// URLSession would otherwise follow a redirect with the request's headers, `Authorization` included (on Linux even
/// to another host), and to plain `http` on any host: the API key would travel to wherever a collector, or anything
/// that answers in its place, points it.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
