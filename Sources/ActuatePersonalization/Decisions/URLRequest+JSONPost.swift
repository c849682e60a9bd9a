import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// A POST of a JSON body that asks for JSON back, as the decision and campaign sources send.
    /// - Parameters:
    ///   - endpoint: Where to post.
    ///   - body: The encoded request.
    ///   - timeout: How long to wait for the next bytes of the answer.
    ///   - authorization: The `Authorization` header's value, if the source has a key.
    static func jsonPost(to endpoint: URL, body: Data, timeout: Duration, authorization: String?) -> URLRequest {
        var request = URLRequest(url: endpoint, timeoutInterval: timeout.timeInterval)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        return request
    }
}
