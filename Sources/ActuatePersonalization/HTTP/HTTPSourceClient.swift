import ActuateReporting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one HTTP core of the module's sources: ``HTTPDecisionSource``, ``HTTPCampaignSource`` and
/// ``HTTPContentBlockSource`` each hold one, and differ only in what they encode and decode.
///
/// It posts a JSON body to its endpoint through an ``OutgoingHTTPClient`` and returns the answer's body, or an
/// ``HTTPSourceFailure`` saying why there is none:
/// - the endpoint obeys ``OutgoingRequestPolicy`` (`https`, or `http` to a loopback host), checked when it is made;
/// - the ``HTTPSourceCredentials`` are checked when they are made and sent on every request;
/// - a body over ``HTTPSourceLimits/maximumRequestBytes`` is refused before anything is sent, and an answer is read
///   up to ``HTTPSourceLimits/maximumResponseBytes``, within ``HTTPSourceLimits/timeout`` and
///   ``HTTPSourceLimits/deadline``;
/// - a redirect is never followed (a request with a body or credentials never is: its 3xx is a failure, so a key
///   never reaches the server it points to);
/// - the status is read once, by ``HTTPSourceStatus``, and a body shorter than its `Content-Length` is refused.
///
/// A struct: its stored values never change, and the ``OutgoingHTTPClient`` it holds is a reference, so copies
/// share one session and its kept-alive connections.
///
/// <!-- readme: package-only -->
/// ```swift
/// let http = try HTTPSourceClient(
///     endpoint: URL(string: "https://decisions.example.com/v1/decide")!,
///     credentials: HTTPSourceCredentials(apiKey: "…"),
///     limits: .decisions
/// )
/// let answer = try await http.post { Data(#"{"visitorID": "v-1"}"#.utf8) }
/// ```
package struct HTTPSourceClient: Sendable, CustomReflectable {
    /// Where requests are posted.
    package let endpoint: URL
    /// What every request carries to prove who sends it.
    package let credentials: HTTPSourceCredentials
    /// How long requests wait and how much they send and read.
    package let limits: HTTPSourceLimits
    private let client: OutgoingHTTPClient

    /// Checks the endpoint and the credentials, and creates a client: what a source's `init` calls.
    /// - Parameters:
    ///   - endpoint: `https`, or `http` on a loopback host.
    ///   - apiKey: The key sent as `Authorization: Bearer <key>`, or nil for none.
    ///   - headers: Extra request headers.
    ///   - limits: The limits; values below their minimum are raised to it.
    /// - Throws: ``HTTPSourceFailure`` saying what cannot be used: the endpoint first (naming it without a
    ///   password), then the credentials.
    package init(
        endpoint: URL,
        apiKey: String?,
        headers: [String: String],
        limits: HTTPSourceLimits
    ) throws(HTTPSourceFailure) {
        if let problem = OutgoingRequestPolicy.problem(with: endpoint) {
            throw .invalidEndpoint(reason: "\(OutgoingRequestPolicy.redacted(endpoint)): \(problem.reason)")
        }
        let limits = limits.applied
        self.endpoint = endpoint
        self.credentials = try HTTPSourceCredentials(apiKey: apiKey, headers: headers)
        self.limits = limits
        self.client = OutgoingHTTPClient(
            policy: OutgoingRequestPolicy(
                timeout: limits.timeout,
                deadline: limits.deadline,
                maximumResponseBytes: limits.maximumResponseBytes,
                followsRedirects: false
            )
        )
    }

    /// The endpoint without a user name or password, as errors and descriptions show it.
    package var redactedEndpoint: String { OutgoingRequestPolicy.redacted(endpoint) }

    /// How a source describes itself: `HTTPDecisionSource(endpoint: …, apiKey: set, headers: none)`, never a key
    /// or a header's value.
    /// - Parameter name: The source's type name.
    /// - Returns: The description.
    package func description(of name: String) -> String {
        "\(name)(endpoint: \(redactedEndpoint), \(credentials))"
    }

    /// The endpoint without its password, the credentials without their values, and the limits, so that `dump`
    /// of a source shows no secret.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: ["endpoint": redactedEndpoint, "credentials": credentials.description, "limits": limits],
            displayStyle: .struct
        )
    }

    /// Posts the JSON that `encode` makes and returns the answer's body.
    /// - Parameter encode: Makes the request body; what it throws is a ``HTTPSourceFailure/requestNotEncoded(reason:)``.
    /// - Returns: The body of a 2xx answer, whole.
    /// - Throws: ``HTTPSourceFailure`` saying why there is no usable answer.
    package func post(_ encode: () throws -> Data) async throws(HTTPSourceFailure) -> Data {
        let body: Data
        do {
            body = try encode()
        } catch {
            throw .requestNotEncoded(reason: "\(error)")
        }
        guard body.count <= limits.maximumRequestBytes else {
            throw .requestTooLarge(bytes: body.count, limit: limits.maximumRequestBytes)
        }
        let http: HTTPResponse
        switch await client.send(request(body: body)) {
        case .http(let response): http = response
        case .failed(let failure): throw .requestFailed(message: failure.message)
        }
        // The one status mapping of the module's sources.
        switch HTTPSourceStatus(statusCode: http.statusCode) {
        case .success: break
        case .redirected(let status): throw .redirected(status: status)
        case .unauthorized(let status): throw .unauthorized(status: status)
        case .requestTooLarge: throw .requestTooLarge(bytes: body.count, limit: limits.maximumRequestBytes)
        case .serverError(let status): throw .serverError(status: status)
        case .unexpected(let status): throw .unexpectedStatus(status)
        }
        if let declared = http.value(forHeader: "Content-Length").flatMap(Int.init), declared != http.body.count {
            throw .truncated(received: http.body.count, declared: declared)
        }
        return http.body
    }

    /// A POST of `body` as JSON that asks for JSON back, with the credentials.
    private func request(body: Data) -> URLRequest {
        var request = URLRequest(url: endpoint, timeoutInterval: limits.timeout.timeInterval)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for field in credentials.headerFields { request.setValue(field.value, forHTTPHeaderField: field.name) }
        return request
    }
}
