#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes read as UTF-8 text, checked, for the paths that decode many strings (the store's segments and log, the
/// export's attribute values).
package enum UTF8Bytes {
    /// `bytes` as a string, and whether they are UTF-8; when not, the string holds U+FFFD in place of each bad
    /// sequence. O(n): one decoding and one comparison, where `String(validating:as:)` costs several times more
    /// on this toolchain (10 % of the import's reading thread).
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> (string: String, isUTF8: Bool) {
        var string = String(decoding: bytes, as: UTF8.self)
        // A repair writes U+FFFD, which is valid UTF-8, where the bytes were not: the bytes are UTF-8 exactly when
        // the string holds them unchanged.
        let same =
            string.utf8.count == bytes.count
            && string.withUTF8 { decoded in
                bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
        return (string, same)
    }

    /// `bytes` as a string when they are UTF-8, else `nil`.
    package static func string(validating bytes: UnsafeRawBufferPointer) -> String? {
        let (string, isUTF8) = decode(bytes)
        return isUTF8 ? string : nil
    }

    /// Whether `bytes` are UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), without
    /// making a string. O(n); eight ASCII bytes a step.
    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            if index + 8 <= count,
                bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The sequence's length and the range its second byte must fall in (RFC 3629's table).
            let length: Int
            var (low, high): (UInt8, UInt8) = (0x80, 0xBF)
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard index + length <= count, bytes[index + 1] >= low, bytes[index + 1] <= high else { return false }
            for continuation in (index + 2)..<(index + length) where bytes[continuation] & 0xC0 != 0x80 {
                return false
            }
            index += length
        }
        return true
    }
}
