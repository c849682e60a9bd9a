import ActuateReporting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``ContentBlockSource`` that asks a server for the blocks of some placeholders, personalised for the user.
///
/// It posts `{"placeholderIds": [...], "anonymousId": "...", "userId": "..."}` as JSON and expects a 2xx answer
/// whose body has the rules file's shape, an object with a `contentBlocks` array, validated the same way.
/// A failed request, a non-2xx status and a malformed or truncated body are reported as a
/// ``ContentBlockError`` and never crash.
///
/// ```swift
/// let source = HTTPContentBlockSource(endpoint: URL(string: "https://api.example.com/content-blocks")!)
/// ```
public struct HTTPContentBlockSource: ContentBlockSource {
    /// Where requests are posted.
    public let endpoint: URL
    private let session: URLSession
    private let headers: [String: String]

    /// Creates a source.
    /// - Parameters:
    ///   - endpoint: Where requests are posted.
    ///   - headers: Extra request headers, such as an authorization.
    ///   - session: The URL session to use; an ephemeral one with a 30-second timeout by default.
    public init(endpoint: URL, headers: [String: String] = [:], session: URLSession? = nil) {
        self.endpoint = endpoint
        self.headers = headers
        self.session = session ?? Self.defaultSession
    }

    public func loadBlocks(
        placeholderIds: [String],
        identity: StoredIdentity,
        completion: @escaping @Sendable (Result<[ContentBlock], ContentBlockError>) -> Void
    ) {
        var body: [String: JSONValue] = [
            "placeholderIds": .array(placeholderIds.map { .string($0) }),
            "anonymousId": .string(identity.anonymousID),
        ]
        if let userID = identity.userID { body["userId"] = .string(userID) }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            request.httpBody = try JSONEncoder().encode(JSONValue.object(body))
        } catch {
            completion(.failure(.sourceFailed(source: endpoint.absoluteString, reason: "\(error)")))
            return
        }
        let source = endpoint.absoluteString
        session.dataTask(with: request) { data, response, error in
            completion(Self.result(data: data, response: response, error: error, source: source))
        }.resume()
    }

    static func result(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?,
        source: String
    ) -> Result<[ContentBlock], ContentBlockError> {
        if let error {
            return .failure(.sourceFailed(source: source, reason: error.localizedDescription))
        }
        guard let status = (response as? HTTPURLResponse)?.statusCode else {
            return .failure(.sourceFailed(source: source, reason: "the answer was not HTTP"))
        }
        guard (200..<300).contains(status) else {
            return .failure(.sourceFailed(source: source, reason: "the server answered with status \(status)"))
        }
        do throws(RulesFileError) {
            return .success(try ContentBlockRules(data: data ?? Data(), name: source).blocks)
        } catch {
            return .failure(.invalidRules(error))
        }
    }

    private static let defaultSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()
}
