import HealthFlow
import Testing

/// ``UTF8Bytes`` says "UTF-8" exactly when the standard library's validation does, and decodes as it does.
struct UTF8BytesTests {
    static func check(_ bytes: [UInt8]) {
        let expected = String(validating: bytes, as: UTF8.self)
        let (string, isUTF8) = bytes.withUnsafeBytes { UTF8Bytes.decode($0) }
        #expect(isUTF8 == (expected != nil), "\(bytes)")
        #expect(string == (expected ?? String(decoding: bytes, as: UTF8.self)), "\(bytes)")
        #expect(bytes.withUnsafeBytes { UTF8Bytes.string(validating: $0) } == expected, "\(bytes)")
        #expect(bytes.withUnsafeBytes { UTF8Bytes.isValid($0) } == (expected != nil), "isValid \(bytes)")
    }

    @Test(
        arguments: [
            [], Array("HKQuantityTypeIdentifierHeartRate".utf8), Array("Apple Watch de José ❤️ 𝄞".utf8),
            [0xEF, 0xBF, 0xBD],  // U+FFFD written as such: valid
            [0x80],  // a lone continuation byte
            [0xF0, 0x9F, 0x98],  // a cut four-byte sequence: as long as the U+FFFD that replaces it
            [0x41, 0xF0, 0x9F, 0x98, 0x42], [0xC0, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xFF], Array("0123456789abcdef".utf8) + [0xFE],
            [0xE0, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong three- and four-byte forms
            [0xED, 0x9F, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],  // the last scalars before the surrogates and U+10FFFF
            Array("01234567".utf8) + [0xE2, 0x80],  // a sequence cut at the end, after a whole ASCII word
        ] as [[UInt8]])
    func agreesWithTheStandardLibraryOn(bytes: [UInt8]) {
        Self.check(bytes)
    }

    /// 5,000 random byte strings, half ASCII and half high bytes, of up to 40 bytes; then 5,000 built from whole
    /// and cut sequences of every length, so that valid multi-byte strings are common.
    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        var random = SeededRandomNumberGenerator(seed: 0x5EED)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &random)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &random)
                    ? UInt8.random(in: 0x20...0x7E, using: &random) : UInt8.random(in: 0x80...0xFF, using: &random)
            }
            Self.check(bytes)
        }
    }

    @Test func agreesWithTheStandardLibraryOnSequencesWholeAndCut() {
        var random = SeededRandomNumberGenerator(seed: 0xC0DE)
        let scalars: [Unicode.Scalar] = [
            "a", "\u{7F}", "\u{80}", "é", "\u{7FF}", "\u{800}", "’", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}",
            "\u{10000}", "𝄞", "\u{10FFFF}",
        ]
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                var encoded = Array(String(scalars.randomElement(using: &random)!).utf8)
                if Int.random(in: 0..<10, using: &random) == 0 { encoded.removeLast() }
                if !encoded.isEmpty, Int.random(in: 0..<20, using: &random) == 0 {
                    encoded[0] = UInt8.random(in: 0xC0...0xFF, using: &random)
                }
                bytes += encoded
            }
            Self.check(bytes)
        }
    }
}
