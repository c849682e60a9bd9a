/// The kinds of record a journal file holds.
package enum JournalRecordKind: UInt8, Sendable {
    /// The first record of a segment; its sequence is the first event sequence the segment may hold.
    case segmentHeader = 1
    /// One stored event.
    case event = 2
    /// The sequences of events that were removed.
    case tombstone = 3
    /// One dead-lettered event with its reason, in the dead-letter file.
    case deadLetter = 4
}

/// The on-disk versions of a journal record, told apart by header byte 13.
package enum JournalRecordFormat: UInt8, CaseIterable, Sendable {
    /// Version 1: a CRC-32 (``CRC32``); byte 13 is zero. Every file written before version 2 holds only these.
    case version1 = 0
    /// Version 2: a ``WordMixChecksum``, about a quarter of the CRC-32's cost to verify.
    case version2 = 2

    /// The version new records are written in.
    static let current = version2
}

/// The binary framing of one journal record.
///
/// A record is a 24-byte header followed by its payload:
///
/// | bytes | field |
/// |---|---|
/// | 0..<4 | magic `AC 7A 4A 52`, so a reader can resynchronise after a corrupt record |
/// | 4..<8 | checksum of the payload followed by header bytes 8..<24 |
/// | 8..<12 | payload length, little-endian |
/// | 12 | ``JournalRecordKind`` |
/// | 13 | ``JournalRecordFormat``: 0 for version 1 (CRC-32), 2 for version 2 (``WordMixChecksum``) |
/// | 14..<16 | zero |
/// | 16..<24 | sequence number, little-endian |
///
/// The checksum covers the length, kind, format and sequence as well as the payload, so a flipped bit anywhere
/// but in the magic marker is detected. Records of both versions may follow each other in one file: a journal
/// written before version 2 is read as it is, and appended to in version 2.
package enum JournalRecord {
    /// The size of a record header.
    static let headerSize = 24
    /// The magic marker, read as a little-endian `UInt32`.
    static let magic: UInt32 = 0x524A_7AAC
    /// The magic marker as it appears in a file.
    static let magicBytes: [UInt8] = [0xAC, 0x7A, 0x4A, 0x52]
    /// Sequences at or above this are never written (a journal appending a million events a second would take
    /// 146,000 years to reach it), so a record that claims one is damage. Refusing them keeps every sequence
    /// arithmetic of recovery and of later appends far from overflow.
    static let sequenceLimit: UInt64 = 1 << 62

    /// Reserves room for a record header at the end of `buffer`, where the payload is then appended.
    ///
    /// - Returns: The offset of the record in `buffer`, to pass to ``seal(_:at:kind:sequence:payloadChecksum:)``.
    static func begin(in buffer: inout [UInt8]) -> Int {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: headerSize))
        return start
    }

    /// The digest of the payload of the record that starts at `start` and runs to the end of `buffer`, the
    /// costly part of sealing it, which callers compute before taking a lock.
    static func payloadDigest(
        of buffer: [UInt8],
        at start: Int,
        format: JournalRecordFormat = .current
    ) -> UInt64 {
        buffer.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[(start + headerSize)...])
            switch format {
            case .version1: return UInt64(CRC32.checksum(payload))
            case .version2: return WordMixChecksum.digest(payload)
            }
        }
    }

    /// Fills in the header of the record that starts at `start` and whose payload runs to the end of `buffer`.
    ///
    /// - Parameter payloadDigest: ``payloadDigest(of:at:format:)`` of the record, in the same format.
    static func seal(
        _ buffer: inout [UInt8],
        at start: Int,
        kind: JournalRecordKind,
        sequence: UInt64,
        payloadDigest: UInt64,
        format: JournalRecordFormat = .current
    ) {
        let length = UInt32(buffer.count - start - headerSize)
        buffer.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: magic.littleEndian, toByteOffset: start, as: UInt32.self)
            raw.storeBytes(of: length.littleEndian, toByteOffset: start + 8, as: UInt32.self)
            let kindAndFormat = UInt32(kind.rawValue) | UInt32(format.rawValue) << 8
            raw.storeBytes(of: kindAndFormat.littleEndian, toByteOffset: start + 12, as: UInt32.self)
            raw.storeBytes(of: sequence.littleEndian, toByteOffset: start + 16, as: UInt64.self)
            let checksum = checksum(
                fieldsAt: UnsafeRawBufferPointer(rebasing: raw[start...]),
                payloadDigest: payloadDigest,
                format: format
            )
            raw.storeBytes(of: checksum.littleEndian, toByteOffset: start + 4, as: UInt32.self)
        }
    }

    /// The checksum of a record whose header starts `header`, from its payload's digest.
    @inline(__always)
    static func checksum(
        fieldsAt header: UnsafeRawBufferPointer,
        payloadDigest: UInt64,
        format: JournalRecordFormat
    ) -> UInt32 {
        switch format {
        case .version1:
            let fields = UnsafeRawBufferPointer(rebasing: header[8..<headerSize])
            return CRC32.checksum(fields, continuing: UInt32(truncatingIfNeeded: payloadDigest))
        case .version2:
            return WordMixChecksum.seal(
                payloadDigest,
                fields: header.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian,
                header.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
            )
        }
    }

    /// Appends a whole record with the given payload to `buffer`.
    package static func append(
        kind: JournalRecordKind,
        sequence: UInt64,
        to buffer: inout [UInt8],
        format: JournalRecordFormat = .current,
        payload: (inout [UInt8]) throws -> Void
    ) rethrows {
        let start = begin(in: &buffer)
        try payload(&buffer)
        seal(
            &buffer,
            at: start,
            kind: kind,
            sequence: sequence,
            payloadDigest: payloadDigest(of: buffer, at: start, format: format),
            format: format
        )
    }
}

/// A valid record found by ``JournalScanner``.
package struct JournalScannedRecord: Sendable {
    /// What the record holds.
    package var kind: JournalRecordKind
    /// The record's sequence number.
    var sequence: UInt64
    /// Where the record starts in the scanned bytes.
    var offset: Int
    /// Where its payload lies in the scanned bytes.
    package var payload: Range<Int>
}

/// What ``JournalScanner`` skipped in one file.
package struct JournalScanSummary: Equatable, Sendable {
    /// The end of the last valid record, where appending may continue.
    var validEnd = 0
    /// The corrupt regions skipped before a later valid record.
    var corruptRanges: [Range<Int>] = []
    /// The number of those regions.
    var corruptRegions: Int { corruptRanges.count }
    /// The bytes in those regions.
    var corruptBytes: Int { corruptRanges.reduce(0) { $0 + $1.count } }
    /// The bytes after the last valid record: a torn write, or nothing if zero.
    var tailBytes = 0
}

/// Reads the valid records of a journal file, skipping anything whose checksum does not match.
package enum JournalScanner {
    /// Visits every valid record in `bytes`, oldest first.
    ///
    /// A record that fails its checksum, or claims a sequence at or above ``JournalRecord/sequenceLimit``, is
    /// skipped by searching for the next magic marker that starts a valid record; when none follows, everything
    /// after the last valid record is reported as the tail.
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - maxPayload: The largest payload a valid record can have.
    ///   - visit: Called for each valid record.
    /// - Returns: What was skipped.
    package static func scan(
        _ bytes: UnsafeRawBufferPointer,
        maxPayload: Int,
        visit: (JournalScannedRecord) -> Void
    ) -> JournalScanSummary {
        var summary = JournalScanSummary()
        var position = 0
        while position + JournalRecord.headerSize <= bytes.count {
            if let record = record(in: bytes, at: position, maxPayload: maxPayload) {
                visit(record)
                position = record.payload.upperBound
                summary.validEnd = position
                continue
            }
            guard let next = nextRecord(in: bytes, after: position, maxPayload: maxPayload) else { break }
            summary.corruptRanges.append(position..<next)
            position = next
        }
        summary.tailBytes = bytes.count - summary.validEnd
        return summary
    }

    /// The offset of the next valid record after `position`, if any.
    private static func nextRecord(in bytes: UnsafeRawBufferPointer, after position: Int, maxPayload: Int) -> Int? {
        var candidate = position + 1
        let firstMagicByte = UInt8(truncatingIfNeeded: JournalRecord.magic)
        while candidate + JournalRecord.headerSize <= bytes.count {
            if bytes[candidate] == firstMagicByte, record(in: bytes, at: candidate, maxPayload: maxPayload) != nil {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    /// The valid record at `position`, or `nil` if the bytes there are not one.
    private static func record(
        in bytes: UnsafeRawBufferPointer,
        at position: Int,
        maxPayload: Int
    ) -> JournalScannedRecord? {
        guard bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian == JournalRecord.magic
        else { return nil }
        let length = Int(bytes.loadUnaligned(fromByteOffset: position + 8, as: UInt32.self).littleEndian)
        let payloadStart = position + JournalRecord.headerSize
        guard length <= maxPayload, length <= bytes.count - payloadStart else { return nil }
        let kindField = bytes.loadUnaligned(fromByteOffset: position + 12, as: UInt32.self).littleEndian
        guard kindField <= 0xFFFF, let kind = JournalRecordKind(rawValue: UInt8(truncatingIfNeeded: kindField)),
            let format = JournalRecordFormat(rawValue: UInt8(truncatingIfNeeded: kindField >> 8))
        else { return nil }
        let payload = payloadStart..<(payloadStart + length)
        let payloadBytes = UnsafeRawBufferPointer(rebasing: bytes[payload])
        let digest: UInt64
        switch format {
        case .version1: digest = UInt64(CRC32.checksum(payloadBytes))
        case .version2: digest = WordMixChecksum.digest(payloadBytes)
        }
        let header = UnsafeRawBufferPointer(rebasing: bytes[position..<payloadStart])
        let expected = bytes.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self).littleEndian
        guard JournalRecord.checksum(fieldsAt: header, payloadDigest: digest, format: format) == expected else {
            return nil
        }
        let sequence = bytes.loadUnaligned(fromByteOffset: position + 16, as: UInt64.self).littleEndian
        guard sequence < JournalRecord.sequenceLimit else { return nil }
        return JournalScannedRecord(kind: kind, sequence: sequence, offset: position, payload: payload)
    }
}
