/// What a source of the package makes of an HTTP answer's status: one mapping for the decision, campaign and
/// content-block sources and the content-block assets, each of which turns it into its own error.
///
/// <!-- readme: package-only -->
/// ```swift
/// let refused = HTTPSourceStatus(statusCode: 403)  // .unauthorized(403)
/// let reason = HTTPSourceStatus(statusCode: 302).description
/// // "the server answered with status 302 (a redirect, not followed)"
/// ```
package enum HTTPSourceStatus: Sendable, Hashable, CustomStringConvertible {
    /// 2xx: the answer's body is read.
    case success(Int)
    /// 3xx: a redirect the client did not follow (a request with a body or credentials never does).
    case redirected(Int)
    /// 401 or 403: the server refused the credentials.
    case unauthorized(Int)
    /// 413: the request was too large for the server.
    case requestTooLarge
    /// 5xx: the server failed.
    case serverError(Int)
    /// Any other status (1xx, other 4xx, or a number outside HTTP's).
    case unexpected(Int)

    /// Classifies a status code.
    /// - Parameter statusCode: The answer's status code.
    package init(statusCode: Int) {
        switch statusCode {
        case 200..<300: self = .success(statusCode)
        case 300..<400: self = .redirected(statusCode)
        case 401, 403: self = .unauthorized(statusCode)
        case 413: self = .requestTooLarge
        case 500..<600: self = .serverError(statusCode)
        default: self = .unexpected(statusCode)
        }
    }

    /// Whether the answer's body is to be read.
    package var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// The status in words, starting "the server answered with status N", for a source's error message.
    package var description: String {
        switch self {
        case .success(let status): "the server answered with status \(status)"
        case .redirected(let status): "the server answered with status \(status) (a redirect, not followed)"
        case .unauthorized(let status): "the server answered with status \(status) (the credentials were refused)"
        case .requestTooLarge: "the server answered with status 413 (the request is too large)"
        case .serverError(let status): "the server answered with status \(status) (a server error)"
        case .unexpected(let status): "the server answered with status \(status)"
        }
    }
}
