import Actuate
import Dispatch
import Foundation
import Synchronization

/// Content-block assets cached by URL plus the block's content version, in memory and in a directory.
///
/// Exponea cached images by URL alone, so a changed image at the same URL never refreshed. Here a new content
/// version misses the cache and downloads again, and the copy of any other version of that URL is dropped.
/// The cache keeps at most `maxBytes` of asset data in memory and as much on disk, dropping the least recently
/// used assets first; an asset larger than that is used but not kept. The directory is owner-only (0700) and so
/// are its files (0600). A cached type is checked against ``ContentBlockAssetType/allowed`` again when read.
/// Every disk read and write happens on the work queue.
final class ContentBlockAssetCache: Sendable {
    struct Key: Sendable, Hashable {
        var url: String
        var version: Int
    }

    private struct Entry {
        var asset: ContentBlockAsset
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var uses: UInt64 = 0
        var downloads = 0

        mutating func insert(_ asset: ContentBlockAsset, for key: Key, limit: Int) {
            for old in entries.keys where old.url == key.url { remove(old) }
            uses += 1
            entries[key] = Entry(asset: asset, lastUse: uses)
            bytes += asset.data.count
            while bytes > limit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                remove(oldest)
            }
        }

        mutating func use(_ key: Key) -> ContentBlockAsset? {
            guard let asset = entries[key]?.asset else { return nil }
            uses += 1
            entries[key]?.lastUse = uses
            return asset
        }

        mutating func remove(_ key: Key) {
            guard let entry = entries.removeValue(forKey: key) else { return }
            bytes -= entry.asset.data.count
        }
    }

    private let directory: URL?
    private let downloader: ContentBlockAssetDownloader
    private let workQueue: DispatchQueue
    private let maxBytes: Int
    private let state = Mutex(State())

    init(directory: URL?, downloader: ContentBlockAssetDownloader, workQueue: DispatchQueue, maxBytes: Int) {
        self.directory = directory
        self.downloader = downloader
        self.workQueue = workQueue
        self.maxBytes = max(0, maxBytes)
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
        if let asset = state.withLock({ $0.use(key) }) { return asset }
        guard let files = files(for: key),
            let data = try? Data(contentsOf: files.data), !data.isEmpty, data.count <= maxBytes,
            let text = try? String(contentsOf: files.type, encoding: .utf8),
            let type = ContentBlockAssetType.allowed(text)
        else { return nil }
        let asset = ContentBlockAsset(data: data, mimeType: type)
        // A disk hit counts as a use there too: eviction drops the files used longest ago.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: files.data.path)
        state.withLock { $0.insert(asset, for: key, limit: maxBytes) }
        return asset
    }

    private func store(_ asset: ContentBlockAsset, for key: Key) {
        guard asset.data.count <= maxBytes else { return }
        state.withLock { $0.insert(asset, for: key, limit: maxBytes) }
        guard let directory, let files = files(for: key) else { return }
        let manager = FileManager.default
        do {
            try OwnerOnlyFile.createDirectory(directory)
            // A directory made by an earlier version, under the usual umask, is 0755: tighten it.
            try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        } catch {
            return
        }
        let prefix = Self.stableHash(key.url) + "-"
        let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) && !name.hasPrefix(files.stem) {
            try? manager.removeItem(at: directory.appendingPathComponent(name))
        }
        // Owner-only (0600) from the moment each file exists: `createFile(atPath:contents:attributes:)` writes with
        // the umask's mode and changes it afterwards.
        do {
            try OwnerOnlyFile.write(Data(asset.mimeType.utf8), to: files.type)
            try OwnerOnlyFile.write(asset.data, to: files.data)
        } catch {
            try? manager.removeItem(at: files.type)
            try? manager.removeItem(at: files.data)
            return
        }
        evictFromDisk(keeping: files.stem, in: directory)
    }

    /// Deletes the assets on disk used longest ago until their data fits in `maxBytes`, never the one just stored.
    private func evictFromDisk(keeping stem: String, in directory: URL) {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        var stored: [(stem: String, bytes: Int, used: Date)] = []
        for name in names where name.hasSuffix(".data") {
            guard let attributes = try? manager.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            else { continue }
            let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let used = attributes[.modificationDate] as? Date ?? .distantPast
            stored.append((String(name.dropLast("data".count)), bytes, used))
        }
        var total = stored.reduce(0) { $0 + $1.bytes }
        for entry in stored.sorted(by: { $0.used < $1.used }) where total > maxBytes && entry.stem != stem {
            try? manager.removeItem(at: directory.appendingPathComponent(entry.stem + "data"))
            try? manager.removeItem(at: directory.appendingPathComponent(entry.stem + "type"))
            total -= entry.bytes
        }
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
