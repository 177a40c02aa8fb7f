import HealthFlow

/// The strings that repeat across an export's records — source names, versions, device descriptions, metadata
/// keys — kept once, so a million samples share a few hundred string buffers instead of holding a copy each.
///
/// At most ``limit`` distinct strings (and as many sources) are kept, and the last ``recentCapacity`` handed out;
/// past that a string passes through unshared, so the pool's own memory stays bounded whatever the export holds. Values that rarely repeat (metadata
/// values, dates) never enter it.
struct StringPool {
    /// The most distinct strings, and the most distinct sources, the pool keeps.
    static let limit = 4_096
    /// How many of the strings handed out last are kept beside the table (past ``limit`` too).
    static let recentCapacity = 8

    private var strings: [String: String] = [:]
    private var sources: [String: HealthSource] = [:]
    /// The strings and sources handed out last, compared before the tables are hashed: a record's strings are
    /// usually the very strings of a record just before (the scanner shares repeated values), and comparing
    /// a string with itself is O(1) while hashing reads all of it.
    private var recentStrings = RecentEntries<String>(capacity: recentCapacity)
    private var recentSources = RecentEntries<HealthSource>(capacity: 4)

    /// `string`, or the equal string the pool already holds.
    mutating func shared(_ string: String) -> String {
        let length = string.utf8.count
        for index in recentStrings.entries.indices
        where recentStrings.entries[index].utf8.count == length && recentStrings.entries[index] == string {
            return recentStrings.entries[index]
        }
        let held: String
        if let known = strings[string] {
            held = known
        } else {
            if strings.count < Self.limit { strings[string] = string }
            held = string
        }
        recentStrings.add(held)
        return held
    }

    /// The exported source named `name` (see ``HealthFlow/HealthSource/exported(name:)``), made once per name.
    mutating func source(named name: String) -> HealthSource {
        let length = name.utf8.count
        for index in recentSources.entries.indices
        where recentSources.entries[index].name.utf8.count == length && recentSources.entries[index].name == name {
            return recentSources.entries[index]
        }
        let source: HealthSource
        if let known = sources[name] {
            source = known
        } else {
            source = HealthSource.exported(name: name)
            if sources.count < Self.limit { sources[name] = source }
        }
        recentSources.add(source)
        return source
    }
}
