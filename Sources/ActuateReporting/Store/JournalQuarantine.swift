import Foundation

/// Keeps copies of damaged segments, named `<segment file>.damaged`, within a share of the store's disk cap.
///
/// Recovery copies a damaged segment here before it cuts or deletes anything in it. The copies together stay
/// within ``budget(maxTotalBytes:)``; beyond it the copies of the oldest segments are deleted first.
struct JournalQuarantine {
    /// The suffix added to a segment's file name.
    static let suffix = ".damaged"

    /// The most bytes the copies may take: a quarter of the disk cap.
    static func budget(maxTotalBytes: Int) -> Int {
        maxTotalBytes / 4
    }

    let directory: String
    let budget: Int
    /// The copies present, by segment number, with their sizes.
    private(set) var copies: [UInt64: Int] = [:]

    /// Reads which copies the directory holds.
    init(directory: String, budget: Int, fileNames: [String]) {
        self.directory = directory
        self.budget = budget
        for name in fileNames where name.hasSuffix(Self.suffix) {
            guard let number = JournalFiles.segmentNumber(fileName: String(name.dropLast(Self.suffix.count))) else {
                continue
            }
            var info = stat()
            // lstat: a link in place of a copy is counted at its own size and deleted like a copy, never followed.
            if lstat(directory + "/" + name, &info) == 0 { copies[number] = Int(info.st_size) }
        }
    }

    /// The bytes the copies take.
    var totalBytes: Int { copies.values.reduce(0, +) }

    /// The names of the copies present.
    var fileNames: Set<String> { Set(copies.keys.map(Self.fileName(ofSegment:))) }

    /// The name of the copy of a segment.
    static func fileName(ofSegment number: UInt64) -> String {
        JournalFiles.fileName(ofSegment: number) + suffix
    }

    /// Writes a copy of a damaged segment as it was found, and makes room for it by deleting the copies of older
    /// segments.
    ///
    /// - Returns: The copy's file name, or `nil` when the copy alone exceeds the budget or cannot be written.
    mutating func keep(segment number: UInt64, bytes: [UInt8]) -> String? {
        guard bytes.count <= budget else { return nil }
        let name = Self.fileName(ofSegment: number)
        let path = directory + "/" + name
        // A link (or anything else) in place of the copy is removed first, and O_EXCL | O_NOFOLLOW create a new
        // file, so the copy never truncates or writes through a link.
        unlink(path)
        guard let descriptor = try? POSIXFile.create(path) else { return nil }
        defer { close(descriptor) }
        do {
            try POSIXFile.write(bytes, to: descriptor, at: 0, path: path)
            try POSIXFile.sync(descriptor, path: path)
        } catch {
            unlink(path)
            return nil
        }
        copies[number] = bytes.count
        evictOldest(keeping: number)
        return copies[number] == nil ? nil : name
    }

    /// Deletes the copies of the oldest segments until the copies fit the budget; `number`, if given, goes last.
    mutating func evictOldest(keeping number: UInt64? = nil) {
        let order = copies.keys.filter { $0 != number }.sorted() + (number.map { [$0] } ?? [])
        for oldest in order {
            guard totalBytes > budget else { return }
            unlink(directory + "/" + Self.fileName(ofSegment: oldest))
            copies[oldest] = nil
        }
    }
}
