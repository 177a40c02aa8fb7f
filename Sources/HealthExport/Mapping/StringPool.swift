import HealthFlow

/// The strings that repeat across an export's records — source names, versions, device descriptions, metadata
/// keys and values — kept once per batch, so the samples of a batch share a few string buffers instead of
/// holding a copy each.
///
/// Each batch gets buffers of its own (``startBatch()``): the threads that check and store a batch release its
/// strings while the reading thread hands out the next batch's, so no two cores change one buffer's reference
/// count at once (its cache line would move between them at each change). For the same reason a string enters
/// the pool as a copy, never as the scanner's buffer, which the scanner keeps handing out.
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

    /// `string`, or the equal string the pool already holds.
    mutating func shared(_ string: String) -> String {
        let length = string.utf8.count
        // Up to 15 UTF-8 bytes a string is stored inline: there is no buffer to share.
        if length <= 15 { return string }
        for index in recentStrings.entries.indices
        where ExactString(recentStrings.entries[index]) == ExactString(string) {
            return recentStrings.entries[index]
        }
        let held: String
        if let known = strings[ExactString(string)] {
            held = known
        } else {
            held = Self.copy(of: string)
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

    /// `string` in a buffer of its own (a string of up to 15 UTF-8 bytes has none: it is stored inline).
    private static func copy(of string: String) -> String {
        let count = string.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            _ = buffer.initialize(from: string.utf8)
            return count
        }
    }

    /// The exported source named `name` (see ``HealthFlow/HealthSource/exported(name:)``), made once per name.
    mutating func source(named name: String) -> HealthSource {
        for index in recentSources.entries.indices
        where ExactString(recentSources.entries[index].name) == ExactString(name) {
            return recentSources.entries[index]
        }
        let source: HealthSource
        if let known = sources[ExactString(name)] {
            source = known
        } else {
            source = HealthSource.exported(name: name)
            if sources.count < Self.limit { sources[ExactString(name)] = source }
        }
        recentSources.add(source)
        return source
    }
}
