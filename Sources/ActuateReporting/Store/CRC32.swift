/// The CRC-32 checksum (IEEE 802.3, reflected polynomial `0xEDB88320`), computed eight bytes at a time.
///
/// Every journal record carries one, so that a torn or corrupted record is detected and never read as data.
enum CRC32 {
    /// Eight 256-entry tables for the slice-by-8 method, one after another.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 {
                crc = (crc & 1) == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
            tables[index] = crc
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The checksum of `bytes`, continuing from the checksum `initial` of the bytes before them.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to add.
    ///   - initial: The checksum of everything before `bytes`; `0` to start.
    /// - Returns: The checksum of the preceding bytes followed by `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing initial: UInt32 = 0) -> UInt32 {
        guard var pointer = bytes.baseAddress else { return initial }
        var remaining = bytes.count
        var crc = ~initial
        tables.withUnsafeBufferPointer { table in
            while remaining >= 8 {
                let low = pointer.loadUnaligned(as: UInt32.self).littleEndian ^ crc
                let high = pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                pointer += 8
                remaining -= 8
            }
            while remaining > 0 {
                let byte = pointer.load(as: UInt8.self)
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                pointer += 1
                remaining -= 1
            }
        }
        return ~crc
    }

    /// The checksum of `bytes`, continuing from `initial`.
    static func checksum(_ bytes: [UInt8], continuing initial: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: initial) }
    }
}
