import Foundation

/// A record's identity derived from its content: a name-based UUID (version 5: SHA-1 of a namespace and the
/// name, RFC 9562 §5.5), so the same record in two exports gets the same UUID and a store refuses it twice.
struct ContentIdentity {
    /// The namespace of every export identity: fixed, since changing it would change every identity.
    private static let namespace: [UInt8] = [
        0x6b, 0x2f, 0x0e, 0x51, 0x3c, 0x4a, 0x5d, 0x8e, 0x9a, 0x61, 0x27, 0x03, 0xd4, 0x1b, 0x86, 0xc5,
    ]

    private var bytes: [UInt8] = namespace

    /// Adds one field; fields are separated by a zero byte, so ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ field: String) {
        bytes.append(contentsOf: field.utf8)
        bytes.append(0)
    }

    mutating func add(_ uuid: UUID) {
        add(uuid.uuidString)
    }

    var uuid: UUID {
        var digest = SHA1.hash(bytes)
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7], digest[8],
                digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            ))
    }
}

/// SHA-1 (FIPS 180-4), only for name-based UUIDs: not used where collision resistance matters.
enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] =
                    UInt32(padded[j]) << 24 | UInt32(padded[j + 1]) << 16 | UInt32(padded[j + 2]) << 8
                    | UInt32(padded[j + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = h
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    switch i {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                e = d
                d = c
                c = b << 30 | b >> 2
                b = a
                a = temp
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        var digest: [UInt8] = []
        for word in [h.0, h.1, h.2, h.3, h.4] {
            digest += [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word),
            ]
        }
        return digest
    }
}
