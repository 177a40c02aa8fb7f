/// The app or device that saved a sample, identified by its bundle identifier (HealthKit's `HKSource`).
///
/// ```swift
/// let source = HealthSource(bundleIdentifier: "com.example.steps", name: "Steps")
/// source.description   // "Steps (com.example.steps)"
/// ```
public struct HealthSource: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The bundle identifier, e.g. `"com.apple.health"`; two sources are the same app when these match.
    ///
    /// ```swift
    /// HealthSource(bundleIdentifier: "com.example.app", name: "Example").bundleIdentifier
    /// ```
    public let bundleIdentifier: String
    /// The name shown to people, e.g. `"Health"`.
    ///
    /// ```swift
    /// HealthSource(bundleIdentifier: "com.example.app", name: "Example").name   // "Example"
    /// ```
    public let name: String

    /// Makes a source.
    ///
    /// ```swift
    /// let watch = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Apple Watch")
    /// ```
    ///
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - name: The name shown to people.
    public init(bundleIdentifier: String, name: String) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
    }

    /// `name (bundleIdentifier)`.
    ///
    /// ```swift
    /// HealthSource(bundleIdentifier: "com.apple.health", name: "Health").description   // "Health (com.apple.health)"
    /// ```
    public var description: String { "\(name) (\(bundleIdentifier))" }
}
