#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the tests of paths that are not UTF-8 check the disk with: names made and read with the C calls
/// directly, never through the code under test (nor through `URL` or `String`, which would replace the bytes).
public enum RawPaths {
    /// U+FFFD in UTF-8: what Foundation puts in place of a byte that is not UTF-8.
    public static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// `prefix` followed by the byte 0xFF, which is never part of UTF-8.
    public static func withFF(_ prefix: String) -> [UInt8] {
        Array(prefix.utf8) + [0xFF]
    }

    /// `prefix` with an invalid sequence in its middle: 0xC3 (the lead byte of a two-byte character) followed by
    /// `(`, which is not a continuation byte, then `suffix`.
    public static func withBrokenSequence(_ prefix: String, _ suffix: String) -> [UInt8] {
        Array(prefix.utf8) + [0xC3, 0x28] + Array(suffix.utf8)
    }

    /// The names `opendir`/`readdir` find in the folder at `path` (without `.` and `..`); empty when it cannot
    /// be opened.
    public static func names(in path: [UInt8]) -> [[UInt8]] {
        guard let folder = withTerminated(path, { opendir($0) }) else { return [] }
        defer { closedir(folder) }
        var found: [[UInt8]] = []
        while let entry = readdir(folder) {
            // Read in place up to the NUL: the record ends with its name, before the field's 256 bytes do.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                let start = UnsafeRawPointer(field)
                return Array(
                    UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
            }
            if name != Array(".".utf8) && name != Array("..".utf8) { found.append(name) }
        }
        return found
    }

    /// Whether any name in the folder at `path` holds U+FFFD: a folder made from a rewritten path.
    public static func holdsReplacement(_ path: [UInt8]) -> Bool {
        names(in: path).contains { name in
            name.count >= 3 && (0...(name.count - 3)).contains { Array(name[$0..<($0 + 3)]) == replacement }
        }
    }

    /// Creates the folder at `path` (0700) with `mkdir`; its parent must exist.
    public static func makeFolder(_ path: [UInt8]) -> Bool {
        withTerminated(path) { mkdir($0, 0o700) } == 0
    }

    /// `folder/name`, byte for byte.
    public static func join(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
        folder + [UInt8(ascii: "/")] + name
    }

    /// A new folder under `/tmp` (named by `mkdtemp`, so UTF-8) for one test.
    public static func temporaryFolder(_ label: String) -> [UInt8] {
        var template = Array("/tmp/healthflow-\(label)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return [] }
        return Array(UnsafeBufferPointer(start: made, count: strlen(made))).map { UInt8(bitPattern: $0) }
    }

    private static func withTerminated<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let terminated = path.map { CChar(bitPattern: $0) } + [0]
        return body(terminated)
    }
}
