import Foundation

@testable import ActuateReporting

/// Rewrites journal files in another record format, so that every damage test runs on files of each version.
enum JournalFormatRewriter {
    /// Reseals every valid record of `file` in `format`, in place: the records keep their offsets, lengths and
    /// payloads, and only their format byte and checksum change, as if the file had been written in `format`.
    static func rewrite(_ file: URL, as format: JournalRecordFormat) throws {
        var bytes = try readBytes(of: file)
        var records: [JournalScannedRecord] = []
        _ = bytes.withUnsafeBytes { JournalScanner.scan($0, maxPayload: 1 << 30) { records.append($0) } }
        for record in records {
            var copy = Array(bytes[record.offset..<record.payload.upperBound])
            JournalRecord.seal(
                &copy,
                at: 0,
                kind: record.kind,
                sequence: record.sequence,
                payloadDigest: JournalRecord.payloadDigest(of: copy, at: 0, format: format),
                format: format
            )
            bytes.replaceSubrange(record.offset..<record.payload.upperBound, with: copy)
        }
        try Data(bytes).write(to: file)
    }

    /// Rewrites every segment and the dead-letter file in `directory` in `format`.
    static func rewriteJournal(in directory: URL, as format: JournalRecordFormat) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for name in names
        where JournalFiles.segmentNumber(fileName: name) != nil || name == JournalFiles.deadLetterFileName {
            try rewrite(directory.appending(path: name), as: format)
        }
    }

    /// The format of each valid record of `file`, oldest first.
    static func formats(of file: URL) throws -> [JournalRecordFormat] {
        let bytes = try readBytes(of: file)
        var formats: [JournalRecordFormat] = []
        _ = bytes.withUnsafeBytes { raw in
            JournalScanner.scan(raw, maxPayload: 1 << 30) { record in
                formats.append(JournalRecordFormat(rawValue: raw[record.offset + 13])!)
            }
        }
        return formats
    }

    /// The bytes of `file`, read with `fread` rather than `Data(contentsOf:)`: under the Address Sanitizer,
    /// `Data(contentsOf:)` buffers read here were reported as leaked when their array copies were resealed.
    private static func readBytes(of file: URL) throws -> [UInt8] {
        guard let stream = fopen(file.path, "rb") else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: file.path])
        }
        defer { fclose(stream) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, stream)
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard ferror(stream) == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        return bytes
    }
}
