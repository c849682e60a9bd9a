/// The payload of a tombstone record: the sequence numbers of removed events, as runs.
///
/// Layout: a LEB128 count of runs, then for each run its first sequence and how many follow it.
package enum JournalTombstone {
    /// Contiguous runs of sorted sequence numbers.
    static func ranges(of sortedSequences: [UInt64]) -> [ClosedRange<UInt64>] {
        var ranges: [ClosedRange<UInt64>] = []
        for sequence in sortedSequences {
            if let last = ranges.last, last.upperBound &+ 1 == sequence {
                ranges[ranges.count - 1] = last.lowerBound...sequence
            } else {
                ranges.append(sequence...sequence)
            }
        }
        return ranges
    }

    /// Encodes tombstone ranges: a count, then each range's first sequence and length.
    static func encode(_ ranges: [ClosedRange<UInt64>], into buffer: inout [UInt8]) {
        ReportEventCodec.appendVarint(UInt64(ranges.count), to: &buffer)
        for range in ranges {
            ReportEventCodec.appendVarint(range.lowerBound, to: &buffer)
            ReportEventCodec.appendVarint(range.upperBound - range.lowerBound, to: &buffer)
        }
    }

    /// Decodes the tombstone ranges of the payload that lies at `payload` in `bytes`.
    static func decode(_ bytes: [UInt8], payload: Range<Int>) throws -> [ClosedRange<UInt64>] {
        try bytes.withUnsafeBytes { try decode(UnsafeRawBufferPointer(rebasing: $0[payload])) }
    }

    /// Decodes tombstone ranges written by ``encode(_:into:)``.
    package static func decode(_ payload: UnsafeRawBufferPointer) throws -> [ClosedRange<UInt64>] {
        var reader = JournalByteReader(payload)
        let count = try reader.count()
        var ranges: [ClosedRange<UInt64>] = []
        ranges.reserveCapacity(count)
        for _ in 0..<count {
            let start = try reader.varint()
            let extra = try reader.varint()
            guard extra <= UInt64.max - start else { throw reader.failure("range overflows") }
            ranges.append(start...(start + extra))
        }
        return ranges
    }
}
