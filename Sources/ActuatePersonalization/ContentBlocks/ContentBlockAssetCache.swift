import Dispatch
import Foundation
import Synchronization

/// Content-block assets cached by URL plus the block's content version, in memory and in a directory.
///
/// Exponea cached images by URL alone, so a changed image at the same URL never refreshed. Here a new content
/// version misses the cache and downloads again, and the copy of any other version of that URL is dropped.
/// Every disk read and write happens on the work queue.
final class ContentBlockAssetCache: Sendable {
    struct Key: Sendable, Hashable {
        var url: String
        var version: Int
    }

    private struct State {
        var entries: [Key: ContentBlockAsset] = [:]
        var downloads = 0
    }

    private let directory: URL?
    private let downloader: ContentBlockAssetDownloader
    private let workQueue: DispatchQueue
    private let state = Mutex(State())

    init(directory: URL?, downloader: ContentBlockAssetDownloader, workQueue: DispatchQueue) {
        self.directory = directory
        self.downloader = downloader
        self.workQueue = workQueue
    }

    /// The number of downloads started so far.
    var downloadCount: Int { state.withLock { $0.downloads } }

    /// Loads every URL at `version`, from the cache or the network, and calls `completion` once on the work
    /// queue with the assets by URL string, or with the first failure. Call it on the work queue.
    func load(
        _ urls: [URL],
        version: Int,
        completion: @escaping @Sendable (Result<[String: ContentBlockAsset], ContentBlockError>) -> Void
    ) {
        var found: [String: ContentBlockAsset] = [:]
        var missing: [URL] = []
        for url in urls {
            if let asset = cached(Key(url: url.absoluteString, version: version)) {
                found[url.absoluteString] = asset
            } else {
                missing.append(url)
            }
        }
        guard !missing.isEmpty else {
            completion(.success(found))
            return
        }
        let gathered = Mutex((assets: found, remaining: missing.count, failure: ContentBlockError?.none))
        state.withLock { $0.downloads += missing.count }
        for url in missing {
            downloader.download(url) { result in
                self.workQueue.async {
                    if case .success(let asset) = result {
                        self.store(asset, for: Key(url: url.absoluteString, version: version))
                    }
                    let finished = gathered.withLock { box -> Result<[String: ContentBlockAsset], ContentBlockError>? in
                        switch result {
                        case .success(let asset): box.assets[url.absoluteString] = asset
                        case .failure(let error): box.failure = box.failure ?? error
                        }
                        box.remaining -= 1
                        guard box.remaining == 0 else { return nil }
                        return box.failure.map { .failure($0) } ?? .success(box.assets)
                    }
                    if let finished { completion(finished) }
                }
            }
        }
    }

    private func cached(_ key: Key) -> ContentBlockAsset? {
        if let asset = state.withLock({ $0.entries[key] }) { return asset }
        guard let files = files(for: key),
            let data = try? Data(contentsOf: files.data), !data.isEmpty,
            let type = try? String(contentsOf: files.type, encoding: .utf8)
        else { return nil }
        let asset = ContentBlockAsset(data: data, mimeType: type)
        state.withLock { $0.entries[key] = asset }
        return asset
    }

    private func store(_ asset: ContentBlockAsset, for key: Key) {
        state.withLock { state in
            for old in state.entries.keys where old.url == key.url && old.version != key.version {
                state.entries[old] = nil
            }
            state.entries[key] = asset
        }
        guard let directory, let files = files(for: key) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let prefix = Self.stableHash(key.url) + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) && !name.hasPrefix(files.stem) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        try? Data(asset.mimeType.utf8).write(to: files.type, options: .atomic)
        try? asset.data.write(to: files.data, options: .atomic)
    }

    private func files(for key: Key) -> (stem: String, data: URL, type: URL)? {
        guard let directory else { return nil }
        let stem = "\(Self.stableHash(key.url))-v\(key.version)"
        return (
            stem + ".",
            directory.appendingPathComponent(stem + ".data"),
            directory.appendingPathComponent(stem + ".type")
        )
    }

    /// FNV-1a over the UTF-8 bytes, in hex: the same on every launch, unlike `hashValue`.
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
