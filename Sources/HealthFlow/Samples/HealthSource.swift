/// The app or device that saved a sample, identified by its bundle identifier (HealthKit's `HKSource`).
///
/// Two sources are equal when their bundle identifiers and names are. A source encodes as an object with the
/// keys `bundleIdentifier` and `name`.
public struct HealthSource: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The two strings, held once and shared by every copy; interned, so a copy of a source (and of every sample
    /// holding one) retains nothing.
    private let storage: SharedStorage<Storage>

    /// The sources made so far, one storage each (a store or an export names a few dozen).
    static let interned = InternTable<Key, Storage>(limit: 4_096)

    /// The bundle identifier, e.g. `"com.apple.health"`; two sources are the same app when these match.
    public var bundleIdentifier: String { storage.object.bundleIdentifier }
    /// The name shown to people, e.g. `"Health"`.
    public var name: String { storage.object.name }

    /// Makes a source.
    ///
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - name: The name shown to people.
    public init(bundleIdentifier: String, name: String) {
        self.init(bundleIdentifier: bundleIdentifier, name: name, internedIn: Self.interned)
    }

    /// A source whose strings are interned in `table` (a full one gives it storage of its own).
    init(bundleIdentifier: String, name: String, internedIn table: InternTable<Key, Storage>) {
        storage = table.storage(for: Key(bundleIdentifier: ExactString(bundleIdentifier), name: ExactString(name))) {
            Storage(bundleIdentifier: bundleIdentifier, name: name)
        }
    }

    /// `name (bundleIdentifier)`.
    public var description: String { "\(name) (\(bundleIdentifier))" }

    /// Equal when the bundle identifiers and the names are equal.
    public static func == (lhs: HealthSource, rhs: HealthSource) -> Bool {
        // Interned by bytes, so two storages may hold equal strings spelled differently: compare the strings.
        lhs.storage.isIdentical(to: rhs.storage)
            || (lhs.bundleIdentifier == rhs.bundleIdentifier && lhs.name == rhs.name)
    }

    /// Whether `other` is this very value (the same shared strings), not just an equal one: O(1).
    func isIdentical(to other: HealthSource) -> Bool { storage.isIdentical(to: other.storage) }

    /// Hashes the bundle identifier and the name.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bundleIdentifier)
        hasher.combine(name)
    }

    private enum CodingKeys: String, CodingKey {
        case bundleIdentifier, name
    }

    /// Decodes the object `{"bundleIdentifier": …, "name": …}`.
    ///
    /// - Throws: `DecodingError` when a key is missing or not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bundleIdentifier: try container.decode(String.self, forKey: .bundleIdentifier),
            name: try container.decode(String.self, forKey: .name))
    }

    /// Encodes the object `{"bundleIdentifier": …, "name": …}`.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(name, forKey: .name)
    }

    /// What a source is interned by: its two strings' bytes, so a source keeps the spelling it was made with.
    struct Key: Hashable, Sendable {
        let bundleIdentifier: ExactString
        let name: ExactString
    }

    /// The immutable strings of one source.
    final class Storage: Sendable {
        let bundleIdentifier: String
        let name: String

        init(bundleIdentifier: String, name: String) {
            self.bundleIdentifier = bundleIdentifier
            self.name = name
        }
    }
}
