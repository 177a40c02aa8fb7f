import HealthFlow

/// The strings that repeat across an export's records — source names, versions, device descriptions, metadata
/// keys and values — kept once per batch, so the samples of a batch share a few string buffers instead of
/// holding a copy each.
///
/// Each batch gets buffers of its own (``startBatch()``): the threads that check and store a batch release its
/// strings while the reading thread hands out the next batch's, so no two cores change one buffer's reference
/// count at once (its cache line would move between them at each change). Each string is made from the bytes
/// the scanner read, so it is a buffer of the pool's own.
///
/// At most ``limit`` distinct strings (and as many sources) are kept, and the last ``recentCapacity`` handed out;
/// past that a string is copied unshared, so the pool's own memory stays bounded whatever the export holds.
struct StringPool {
    /// The most distinct strings, and the most distinct sources, the pool keeps.
    static let limit = 4_096
    /// How many of the strings handed out last are kept beside the table (past ``limit`` too).
    static let recentCapacity = 8

    /// Keyed by bytes (``HealthFlow/ExactString``): a string comes back with the very bytes it was given, not
    /// another spelling equal under Unicode canonical equivalence.
    private var strings: [ExactString: String] = [:]
    private var sources: [ExactString: HealthSource] = [:]
    /// The strings and sources handed out last, compared before the tables are hashed: a record's strings are
    /// usually the very strings of a record just before (the scanner shares repeated values), and comparing
    /// a string with itself is O(1) while hashing reads all of it.
    private var recentStrings = RecentEntries<String>(capacity: recentCapacity)
    private var recentSources = RecentEntries<HealthSource>(capacity: 4)

    /// `bytes` (UTF-8: the scanner checked them) as a string: the one the pool already holds for these bytes,
    /// or a new one. No string is made for a repeat of a recent one.
    mutating func shared(_ bytes: UnsafeRawBufferPointer) -> String {
        // Up to 15 UTF-8 bytes a string is stored inline: there is no buffer to share.
        if bytes.count <= 15 { return String(decoding: bytes, as: UTF8.self) }
        for index in recentStrings.entries.indices
        where ExactString.bytes(of: recentStrings.entries[index], equal: bytes) {
            return recentStrings.entries[index]
        }
        let string = String(decoding: bytes, as: UTF8.self)
        let held: String
        if let known = strings[ExactString(string)] {
            held = known
        } else {
            held = string
            if strings.count < Self.limit { strings[ExactString(held)] = held }
        }
        recentStrings.add(held)
        return held
    }

    /// Starts a batch: the strings handed out from now on are new buffers (sources, which copy without reference
    /// counting, are kept).
    mutating func startBatch() {
        strings.removeAll(keepingCapacity: true)
        recentStrings = RecentEntries(capacity: Self.recentCapacity)
    }

    /// The exported source named by the UTF-8 `name` (see ``HealthFlow/HealthSource/exported(name:)``), made
    /// once per name.
    mutating func source(named name: UnsafeRawBufferPointer) -> HealthSource {
        for index in recentSources.entries.indices
        where ExactString.bytes(of: recentSources.entries[index].name, equal: name) {
            return recentSources.entries[index]
        }
        let text = String(decoding: name, as: UTF8.self)
        let source: HealthSource
        if let known = sources[ExactString(text)] {
            source = known
        } else {
            source = HealthSource.exported(name: text)
            if sources.count < Self.limit { sources[ExactString(text)] = source }
        }
        recentSources.add(source)
        return source
    }
}
