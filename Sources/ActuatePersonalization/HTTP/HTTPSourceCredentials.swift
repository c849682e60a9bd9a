import ActuateReporting

/// What an HTTP source sends to prove who it is: an API key (`Authorization: Bearer <key>`), extra headers, or
/// both, checked once when the source is made, by one rule for every source.
///
/// - The key follows ``OutgoingRequestPolicy/apiKeyProblem(_:)``: not empty, not blank, printable ASCII.
/// - Each header's name is an HTTP token and its value printable ASCII (``OutgoingRequestPolicy``), so no CR or LF
///   can end a header line and start another (`"X-Key\r\nX-Injected: yes"`).
/// - A header may not be one the source sets itself: `Content-Type`, `Accept` and `Content-Length`, and
///   `Authorization` when a key is given.
///
/// Its description and its mirror name the headers and whether a key is set, never a value.
///
/// <!-- readme: package-only -->
/// ```swift
/// let credentials = try HTTPSourceCredentials(apiKey: "sk_live_…", headers: ["X-Tenant": "shop-1"])
/// print(credentials)  // apiKey: set, headers: X-Tenant
/// ```
package struct HTTPSourceCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// No key and no headers.
    package static let none = HTTPSourceCredentials(checked: nil, headers: [:])

    /// The API key, sent as `Authorization: Bearer <key>`.
    package let apiKey: String?
    /// The extra headers, sent as they are.
    package let headers: [String: String]

    /// The headers a source sets itself, which the caller's headers may not replace.
    static let sourceHeaders: Set<String> = ["accept", "content-type", "content-length"]

    /// Checks and creates credentials.
    /// - Parameters:
    ///   - apiKey: The key sent as `Authorization: Bearer <key>`, or nil for none.
    ///   - headers: Extra request headers.
    /// - Throws: ``HTTPSourceFailure/invalidAPIKey(reason:)`` or ``HTTPSourceFailure/invalidHeader(reason:)``;
    ///   the reason names a header, never its value.
    package init(apiKey: String? = nil, headers: [String: String] = [:]) throws(HTTPSourceFailure) {
        if let apiKey, let problem = OutgoingRequestPolicy.apiKeyProblem(apiKey) {
            throw .invalidAPIKey(reason: problem)
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            // The name as a Swift literal, cut short: its CR or LF shows escaped, and it may be long.
            let shown = String(String(reflecting: name).prefix(120))
            if let problem = OutgoingRequestPolicy.headerNameProblem(name) {
                throw .invalidHeader(reason: "the header name \(shown) cannot be sent: \(problem)")
            }
            if let problem = OutgoingRequestPolicy.headerValueProblem(value) {
                throw .invalidHeader(reason: "the value of the header \(shown) cannot be sent: \(problem)")
            }
            let lowercased = name.lowercased()
            if Self.sourceHeaders.contains(lowercased) {
                throw .invalidHeader(reason: "the header \(shown) cannot be sent: the source sets it itself")
            }
            if lowercased == "authorization", apiKey != nil {
                throw .invalidHeader(
                    reason: "the header \(shown) cannot be sent with an API key: the key is the authorization"
                )
            }
        }
        self.init(checked: apiKey, headers: headers)
    }

    private init(checked apiKey: String?, headers: [String: String]) {
        self.apiKey = apiKey
        self.headers = headers
    }

    /// The header lines the credentials add to a request, the key's first.
    package var headerFields: [(name: String, value: String)] {
        let key = apiKey.map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
        return key + headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// Whether a key is set and which headers, never a value: `apiKey: set, headers: X-Tenant`.
    package var description: String {
        let names = headers.keys.sorted()
        let shown = names.isEmpty ? "none" : names.joined(separator: ", ")
        return "apiKey: \(apiKey == nil ? "none" : "set"), headers: \(shown)"
    }

    /// The description alone, so that `dump` and `String(reflecting:)` show no key or value either.
    package var customMirror: Mirror {
        Mirror(self, children: ["credentials": description], displayStyle: .struct)
    }
}
