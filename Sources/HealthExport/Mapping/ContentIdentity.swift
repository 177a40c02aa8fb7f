import CSHA1
import Foundation

/// A record's identity derived from its content: a name-based UUID (version 5: SHA-1 of a namespace and the
/// name, RFC 9562 §5.5), so the same record in two exports gets the same UUID and a store refuses it twice.
struct ContentIdentity {
    /// The namespace of every export identity: fixed, since changing it would change every identity.
    private static let namespace: [UInt8] = [
        0x6b, 0x2f, 0x0e, 0x51, 0x3c, 0x4a, 0x5d, 0x8e, 0x9a, 0x61, 0x27, 0x03, 0xd4, 0x1b, 0x86, 0xc5,
    ]

    /// The namespace, then every field with its terminating zero byte: the name that is hashed.
    private var bytes: [UInt8]

    init() {
        bytes = []
        bytes.reserveCapacity(256)
        bytes.append(contentsOf: Self.namespace)
    }

    /// Starts again with no field, keeping the buffer: a reader making one identity after another allocates once.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: Self.namespace)
    }

    /// Adds one field; fields are separated by a zero byte, so ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ field: String) {
        append(field)
        bytes.append(0)
    }

    /// Adds one field given as its UTF-8 bytes: the same bytes as adding the string they spell.
    mutating func add(_ field: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: field)
        bytes.append(0)
    }

    /// Adds the value of `element`'s attribute `attribute` as one field, an empty one when it has none.
    mutating func add(attribute: StaticString, of element: ExportElement) {
        if element.withValue(attribute, { add($0) }) == nil { bytes.append(0) }
    }

    /// Adds the one field `key=value`: the same bytes as adding `key + "=" + value`.
    mutating func add(key: String, value: String) {
        append(key)
        bytes.append(UInt8(ascii: "="))
        append(value)
        bytes.append(0)
    }

    /// Adds `number` as one field, written in decimal: the same bytes as adding `String(number)`, without making
    /// the string.
    mutating func add(_ number: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            // The magnitude's digits from the end, then the sign: Int64.min's magnitude does not fit an Int64.
            var magnitude = number.magnitude
            var first = digits.count
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                first -= 1
                digits[first] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
        }
        bytes.append(0)
    }

    private mutating func append(_ part: String) {
        var part = part
        part.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func add(_ uuid: UUID) {
        add(uuid.uuidString)
    }

    var uuid: UUID {
        var digest = SHA1.Digest()
        bytes.withUnsafeBytes { digest = SHA1.hash($0) }
        return UUID(
            uuid: (
                digest.byte(0), digest.byte(1), digest.byte(2), digest.byte(3), digest.byte(4), digest.byte(5),
                (digest.byte(6) & 0x0F) | 0x50, digest.byte(7), (digest.byte(8) & 0x3F) | 0x80, digest.byte(9),
                digest.byte(10), digest.byte(11), digest.byte(12), digest.byte(13), digest.byte(14), digest.byte(15)
            ))
    }
}

/// SHA-1 (FIPS 180-4), only for name-based UUIDs: not used where collision resistance matters.
enum SHA1 {
    /// The five words of a digest; byte `i` is the big-endian byte `i % 4` of word `i / 4`.
    struct Digest {
        var words: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )

        func byte(_ index: Int) -> UInt8 {
            let word =
                switch index / 4 {
                case 0: words.0
                case 1: words.1
                case 2: words.2
                case 3: words.3
                default: words.4
                }
            return UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * (index % 4)))
        }
    }

    /// Whether this processor compresses blocks with its SHA instructions (``hash(_:usingHardware:)``); asked once.
    static let hardwareIsAvailable = hf_sha1_hardware_available()

    /// Hashes `message` in place: whole blocks straight from it, the padded tail (one or two blocks) from a
    /// buffer on the stack; nothing is allocated. `usingHardware` (when the processor has SHA instructions) is
    /// the caller's only to compare the two ways; both give the same digest.
    static func hash(_ message: UnsafeRawBufferPointer, usingHardware: Bool = hardwareIsAvailable) -> Digest {
        var digest = Digest()
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
            let whole = message.count / 64 * 64
            compress(UnsafeRawBufferPointer(rebasing: message[0..<whole]), into: &digest, schedule, usingHardware)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                let rest = message.count - whole
                let tailCount = rest < 56 ? 64 : 128
                tail.initialize(repeating: 0)
                for index in 0..<rest { tail[index] = message[whole + index] }
                tail[rest] = 0x80
                let bitLength = UInt64(message.count) * 8
                for index in 0..<8 {
                    tail[tailCount - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * index))
                }
                let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(tail)[0..<tailCount])
                compress(bytes, into: &digest, schedule, usingHardware)
            }
        }
        return digest
    }

    /// The whole 64-byte blocks of `blocks` into `digest`, with the processor's SHA instructions when
    /// `usingHardware` and it has them; `w` is scratch for the portable way's 80-word message schedule.
    private static func compress(
        _ blocks: UnsafeRawBufferPointer, into digest: inout Digest, _ w: UnsafeMutableBufferPointer<UInt32>,
        _ usingHardware: Bool
    ) {
        let count = blocks.count / 64
        guard count > 0, let base = blocks.baseAddress else { return }
        if usingHardware, hardwareIsAvailable {
            withUnsafeMutableBytes(of: &digest.words) { state in
                hf_sha1_compress(
                    state.baseAddress!.assumingMemoryBound(to: UInt32.self), base.assumingMemoryBound(to: UInt8.self),
                    count)
            }
            return
        }
        for block in 0..<count {
            compress(UnsafeRawBufferPointer(rebasing: blocks[(block * 64)..<(block * 64 + 64)]), into: &digest, w)
        }
    }

    /// One 64-byte block into `digest`; `w` is scratch for the 80-word message schedule.
    private static func compress(
        _ block: UnsafeRawBufferPointer, into digest: inout Digest, _ w: UnsafeMutableBufferPointer<UInt32>
    ) {
        for i in 0..<16 {
            let j = i * 4
            w[i] =
                UInt32(block[j]) << 24 | UInt32(block[j + 1]) << 16 | UInt32(block[j + 2]) << 8 | UInt32(block[j + 3])
        }
        for i in 16..<80 {
            let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
            w[i] = x << 1 | x >> 31
        }
        let h = digest.words
        var (a, b, c, d, e) = h
        func round(_ f: UInt32, _ k: UInt32, _ i: Int) {
            let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
            e = d
            d = c
            c = b << 30 | b >> 2
            b = a
            a = temp
        }
        for i in 0..<20 { round((b & c) | (~b & d), 0x5A82_7999, i) }
        for i in 20..<40 { round(b ^ c ^ d, 0x6ED9_EBA1, i) }
        for i in 40..<60 { round((b & c) | (b & d) | (c & d), 0x8F1B_BCDC, i) }
        for i in 60..<80 { round(b ^ c ^ d, 0xCA62_C1D6, i) }
        digest.words = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }
}
