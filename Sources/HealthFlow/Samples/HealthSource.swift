/// The app or device that saved a sample, identified by its bundle identifier (HealthKit's `HKSource`).
public struct HealthSource: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The bundle identifier, e.g. `"com.apple.health"`; two sources are the same app when these match.
    public let bundleIdentifier: String
    /// The name shown to people, e.g. `"Health"`.
    public let name: String

    /// Makes a source.
    ///
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - name: The name shown to people.
    public init(bundleIdentifier: String, name: String) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
    }

    /// `name (bundleIdentifier)`.
    public var description: String { "\(name) (\(bundleIdentifier))" }
}
