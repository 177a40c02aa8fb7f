import Foundation

/// A string compared and hashed by its UTF-8 bytes rather than by Unicode canonical equivalence, for tables that
/// hand back a stored string in place of an equal one: with `String`'s own `==`, "é" written as one scalar and as
/// "e" with a combining accent are equal, and such a table would give back the other spelling's bytes.
package struct ExactString: Hashable, Sendable {
    /// The string, whose bytes are the key.
    package let string: String

    package init(_ string: String) {
        self.string = string
    }

    /// Equal when the UTF-8 bytes are: O(n), O(1) when the lengths differ.
    package static func == (lhs: ExactString, rhs: ExactString) -> Bool {
        guard lhs.string.utf8.count == rhs.string.utf8.count else { return false }
        guard !lhs.string.isEmpty else { return true }
        let compared = lhs.string.utf8.withContiguousStorageIfAvailable { left in
            rhs.string.utf8.withContiguousStorageIfAvailable { right in
                left.baseAddress == right.baseAddress || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
        return compared.flatMap { $0 } ?? lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    /// Hashes the UTF-8 bytes.
    package func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(string.utf8.count)
    }

    /// Whether `string`'s UTF-8 bytes are `bytes`, without making a string of them. O(n).
    package static func bytes(of string: String, equal bytes: UnsafeRawBufferPointer) -> Bool {
        guard string.utf8.count == bytes.count else { return false }
        guard !bytes.isEmpty else { return true }
        return string.utf8.withContiguousStorageIfAvailable {
            memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
            ?? string.utf8.elementsEqual(bytes)
    }
}
