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
}
