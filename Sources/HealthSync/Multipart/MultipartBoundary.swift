/// The delimiter between the parts of a multipart/form-data body: 1 to 70 characters of `[A-Za-z0-9-]`.
///
/// Restricting the alphabet means the boundary never needs quoting in the `Content-Type` header and cannot be
/// mangled by a proxy. ``random()`` makes one with 190 bits of randomness, which no real content contains by
/// accident; a boundary you choose yourself is validated and checked against `Data` content by ``MultipartBody``.
public struct MultipartBoundary: Hashable, Sendable, CustomStringConvertible {
    /// The boundary text, without the leading `--`.
    public let value: String

    /// The longest boundary RFC 2046 allows.
    public static let maximumLength = 70

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Validates a boundary you chose.
    ///
    /// - Parameter value: 1 to 70 characters, each a letter, a digit or `-`.
    /// - Throws: ``MultipartError/invalidBoundary(_:)`` otherwise.
    public init(_ value: String) throws(MultipartError) {
        let bytes = value.utf8
        guard (1...Self.maximumLength).contains(bytes.count),
            bytes.allSatisfy({ Self.alphabet.contains($0) || $0 == UInt8(ascii: "-") })
        else { throw .invalidBoundary(value) }
        self.value = value
    }

    private init(unchecked value: String) {
        self.value = value
    }

    /// A fresh random boundary: `HealthFlow-` and 32 random letters and digits (about 190 bits).
    public static func random() -> MultipartBoundary {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A random boundary drawn from the given generator (a seeded one makes tests reproducible).
    ///
    /// - Parameter generator: the source of randomness.
    public static func random(using generator: inout some RandomNumberGenerator) -> MultipartBoundary {
        var bytes = Array("HealthFlow-".utf8)
        for _ in 0..<32 {
            bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
        }
        return MultipartBoundary(unchecked: String(decoding: bytes, as: UTF8.self))
    }

    /// The boundary text, as it appears in the `Content-Type` header.
    public var description: String { value }
}
