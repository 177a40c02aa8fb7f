import Foundation

/// Samples framed for a scratch file that one process writes and reads back itself (the importer's held
/// records), in the durable store's binary form.
///
/// ```text
/// chunk   = length:u32 crc:u32 payload        (little-endian; crc is the CRC-32 of payload)
/// payload = count:varint sample*              (SampleCodec, one string table for the chunk)
/// ```
///
/// One string table a chunk makes a run of records from one source repeat its strings as one-byte references.
/// Decoding checks the checksum first and then runs the samples' validating initializers: a chunk that decodes
/// holds the samples encoded, and damage is a ``Damage``, never a wrong sample.
package enum SampleChunk {
    /// The bytes before a chunk's payload.
    package static let headerSize = 8

    /// Why a chunk did not decode.
    package struct Damage: Error, Equatable {
        package let reason: String
    }

    /// The chunk holding `samples`, header included.
    /// - Complexity: O(total encoded size).
    package static func encode(_ samples: [HealthSample]) -> [UInt8] {
        var writer = BinaryWriter(capacity: headerSize + 96 * samples.count + 64)
        writer.uint64(0)
        writer.count(samples.count)
        // Indices rather than `for sample in samples`: iterating copies each (large) sample.
        for index in samples.indices { SampleCodec.encode(samples[index], into: &writer) }
        var bytes = writer.takeBytes()
        let length = UInt32(truncatingIfNeeded: bytes.count - headerSize)
        let checksum = CRC32.checksum(bytes, in: headerSize..<bytes.count)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: length.littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: checksum.littleEndian, toByteOffset: 4, as: UInt32.self)
        }
        return bytes
    }

    /// The length of the payload that follows `header` (a chunk's first ``headerSize`` bytes).
    /// - Precondition: `header` holds ``headerSize`` bytes.
    package static func payloadLength(header: [UInt8]) -> Int {
        precondition(header.count == headerSize, "a chunk header is \(headerSize) bytes")
        return Int(
            header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) })
    }

    /// The samples of the chunk whose header and payload these are.
    /// - Throws: ``Damage`` when the payload's length or checksum is not the header's, or it does not decode.
    package static func decode(header: [UInt8], payload: [UInt8]) throws(Damage) -> [HealthSample] {
        guard payloadLength(header: header) == payload.count else {
            throw Damage(
                reason: "the chunk holds \(payload.count) bytes, its header names \(payloadLength(header: header))")
        }
        let checksum = header.withUnsafeBytes {
            UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        }
        guard CRC32.checksum(payload) == checksum else { throw Damage(reason: "the chunk's checksum does not match") }
        do throws(BinaryReader.Failure) {
            var reader = BinaryReader(payload, range: 0..<payload.count)
            var decoder = SampleDecoder()
            let count = try reader.count(minimumSize: 40)
            var samples: [HealthSample] = []
            samples.reserveCapacity(count)
            for _ in 0..<count { samples.append(try decoder.sample(from: &reader)) }
            try reader.expectEnd()
            return samples
        } catch {
            throw Damage(reason: error.reason)
        }
    }
}
