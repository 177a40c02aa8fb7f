import HealthFlow

/// The strings that repeat across an export's records — source names, versions, device descriptions, metadata
/// keys — kept once, so a million samples share a few hundred string buffers instead of holding a copy each.
///
/// At most ``limit`` distinct strings (and as many sources) are kept; past that a string passes through unshared,
/// so the pool's own memory stays bounded whatever the export holds. Values that rarely repeat (metadata
/// values, dates) never enter it.
struct StringPool {
    /// The most distinct strings, and the most distinct sources, the pool keeps.
    static let limit = 4_096

    private var strings: [String: String] = [:]
    private var sources: [String: HealthSource] = [:]

    /// `string`, or the equal string the pool already holds.
    mutating func shared(_ string: String) -> String {
        if let held = strings[string] { return held }
        if strings.count < Self.limit { strings[string] = string }
        return string
    }

    /// The exported source named `name` (see ``HealthFlow/HealthSource/exported(name:)``), made once per name.
    mutating func source(named name: String) -> HealthSource {
        if let held = sources[name] { return held }
        let source = HealthSource.exported(name: name)
        if sources.count < Self.limit { sources[name] = source }
        return source
    }
}
