/// CRC-32 (IEEE 802.3, reflected polynomial `0xEDB88320`, the checksum of zlib, gzip and PNG), computed
/// eight bytes at a time ("slicing-by-8").
///
/// `CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926`.
enum CRC32 {
    /// Eight 256-entry tables, one after another: entry `256 * k + b` is the CRC of byte `b` followed by `k`
    /// zero bytes.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            table[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(slice - 1) * 256 + byte]
                table[slice * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    /// The CRC-32 of `bytes[range]` (of all of `bytes` without a range; 0 for a range outside them).
    static func checksum(_ bytes: [UInt8], in range: Range<Int>? = nil) -> UInt32 {
        let range = range ?? bytes.indices
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, range.lowerBound >= 0, range.upperBound <= buffer.count else {
                return 0
            }
            return checksum(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
        }
    }

    /// The CRC-32 of `buffer`.
    static func checksum(_ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            var index = 0
            let count = buffer.count
            while count - index >= 8 {
                let low =
                    crc
                    ^ (UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8 | UInt32(buffer[index + 2]) << 16
                        | UInt32(buffer[index + 3]) << 24)
                let a = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                let b = table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                let c = table[3 * 256 + Int(buffer[index + 4])] ^ table[2 * 256 + Int(buffer[index + 5])]
                let d = table[1 * 256 + Int(buffer[index + 6])] ^ table[Int(buffer[index + 7])]
                crc = a ^ b ^ c ^ d
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(buffer[index])) & 0xFF)]
                index += 1
            }
            return ~crc
        }
    }
}
