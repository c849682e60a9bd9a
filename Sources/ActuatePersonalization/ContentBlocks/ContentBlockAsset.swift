import ActuateReporting
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One downloaded asset of a content block, such as an image.
struct ContentBlockAsset: Sendable, Hashable {
    var data: Data
    /// One of ``ContentBlockAssetType/allowed``, never the server's text as it came.
    var mimeType: String

    /// The asset as a `data:` URL, so a shown document needs nothing more from the network.
    var dataURL: String { "data:\(mimeType);base64,\(data.base64EncodedString())" }
}

/// Downloads content-block assets under the package's outgoing-request policy.
///
/// An asset URL is `https`, or `http` on a loopback host; a redirect is followed only to such a URL; the body
/// stops at `maxBytes`; the configuration's idle timeout and total deadline bound the download. The server's
/// `Content-Type` must be one of ``ContentBlockAssetType/allowed``.
struct ContentBlockAssetDownloader: Sendable {
    let client: OutgoingHTTPClient

    /// Creates a downloader with the limits of `configuration`.
    init(configuration: ContentBlockConfiguration) {
        client = OutgoingHTTPClient(
            policy: OutgoingRequestPolicy(
                timeout: configuration.assetTimeout,
                deadline: configuration.assetDeadline,
                maximumResponseBytes: configuration.maxAssetBytes,
                followsRedirects: true
            )
        )
    }

    /// Downloads `url`, calling `completion` once, on any queue.
    func download(_ url: URL, completion: @escaping @Sendable (Result<ContentBlockAsset, ContentBlockError>) -> Void) {
        let name = OutgoingRequestPolicy.redacted(url)
        let fail = { @Sendable (reason: String) in completion(.failure(.assetFailed(url: name, reason: reason))) }
        if let problem = OutgoingRequestPolicy.problem(with: url) { return fail(problem.reason) }
        client.send(URLRequest(url: url)) { response in
            let http: HTTPResponse
            switch response {
            case .http(let answer): http = answer
            case .failed(let failure): return fail(failure.message)
            }
            let status = HTTPSourceStatus(statusCode: http.statusCode)
            guard status.isSuccess else { return fail(status.description) }
            guard !http.body.isEmpty else { return fail("the server sent no data") }
            let declared = http.value(forHeader: "Content-Type") ?? ""
            guard let type = ContentBlockAssetType.allowed(declared) else {
                return fail("its type \(ContentBlockAssetType.quoted(declared)) is not an allowed image or font type")
            }
            completion(.success(ContentBlockAsset(data: http.body, mimeType: type)))
        }
    }
}
