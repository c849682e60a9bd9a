import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One downloaded asset of a content block, such as an image.
struct ContentBlockAsset: Sendable, Hashable {
    var data: Data
    var mimeType: String

    /// The asset as a `data:` URL, so a shown document needs nothing more from the network.
    var dataURL: String { "data:\(mimeType);base64,\(data.base64EncodedString())" }
}

/// Downloads content-block assets with a URL session.
struct ContentBlockAssetDownloader: Sendable {
    let session: URLSession
    let maxBytes: Int

    /// Downloads `url`, calling `completion` once on the session's queue.
    func download(_ url: URL, completion: @escaping @Sendable (Result<ContentBlockAsset, ContentBlockError>) -> Void) {
        let maxBytes = maxBytes
        session.dataTask(with: url) { data, response, error in
            let fail = { (reason: String) in completion(.failure(.assetFailed(url: url.absoluteString, reason: reason)))
            }
            if let error { return fail(error.localizedDescription) }
            guard let http = response as? HTTPURLResponse else { return fail("the answer was not HTTP") }
            guard (200..<300).contains(http.statusCode) else {
                return fail("the server answered with status \(http.statusCode)")
            }
            guard let data, !data.isEmpty else { return fail("the server sent no data") }
            guard data.count <= maxBytes else {
                return fail("\(data.count) bytes is more than the limit of \(maxBytes)")
            }
            let type = http.value(forHTTPHeaderField: "Content-Type")?.split(separator: ";").first
                .map { $0.trimmingCharacters(in: .whitespaces) }
            completion(.success(ContentBlockAsset(data: data, mimeType: type ?? "application/octet-stream")))
        }.resume()
    }

    static let defaultSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()
}
