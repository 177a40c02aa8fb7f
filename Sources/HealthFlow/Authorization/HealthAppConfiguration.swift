/// Who the app is, as a health store sees it: its bundle identifier and name (which make its
/// ``HealthSource``) and the `Info.plist` usage descriptions HealthKit insists on.
///
/// Requesting to share (write) types needs ``healthUpdateUsageDescription`` (`NSHealthUpdateUsageDescription`);
/// requesting to read needs ``healthShareUsageDescription`` (`NSHealthShareUsageDescription`). A missing,
/// empty or blank description makes the request fail with
/// ``HealthStoreError/missingUsageDescription(_:)`` — where HealthKit would crash the app.
///
/// ```swift
/// let app = HealthAppConfiguration(
///     bundleIdentifier: "com.example.steps", name: "Steps",
///     healthShareUsageDescription: "Shows your daily steps.",
///     healthUpdateUsageDescription: "Saves the walks you log.")
/// let store = InMemoryHealthStore(configuration: app, policy: .grantAll)
/// app.source   // Steps (com.example.steps)
/// ```
public struct HealthAppConfiguration: Hashable, Sendable, Codable {
    /// The app's bundle identifier; samples the app saves carry it as their source.
    ///
    /// ```swift
    /// app.bundleIdentifier   // "com.example.steps"
    /// ```
    public var bundleIdentifier: String
    /// The app's name as shown to people.
    ///
    /// ```swift
    /// app.name   // "Steps"
    /// ```
    public var name: String
    /// `NSHealthShareUsageDescription`: why the app reads health data. Needed to request read access.
    ///
    /// ```swift
    /// app.healthShareUsageDescription   // "Shows your daily steps."
    /// ```
    public var healthShareUsageDescription: String?
    /// `NSHealthUpdateUsageDescription`: why the app writes health data. Needed to request share access.
    ///
    /// ```swift
    /// app.healthUpdateUsageDescription   // "Saves the walks you log."
    /// ```
    public var healthUpdateUsageDescription: String?

    /// Makes a configuration.
    ///
    /// ```swift
    /// let readOnlyApp = HealthAppConfiguration(
    ///     bundleIdentifier: "com.example.viewer", name: "Viewer", healthShareUsageDescription: "Shows trends.")
    /// ```
    ///
    /// - Parameters:
    ///   - bundleIdentifier: The app's bundle identifier.
    ///   - name: The app's name.
    ///   - healthShareUsageDescription: Why the app reads health data (`NSHealthShareUsageDescription`).
    ///   - healthUpdateUsageDescription: Why the app writes health data (`NSHealthUpdateUsageDescription`).
    public init(
        bundleIdentifier: String, name: String, healthShareUsageDescription: String? = nil,
        healthUpdateUsageDescription: String? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
        self.healthShareUsageDescription = healthShareUsageDescription
        self.healthUpdateUsageDescription = healthUpdateUsageDescription
    }

    /// The source stamped on the samples this app saves.
    ///
    /// ```swift
    /// let sample = try HealthQuantitySample(
    ///     type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 300),
    ///     start: start, end: end, source: app.source)
    /// ```
    public var source: HealthSource {
        HealthSource(bundleIdentifier: bundleIdentifier, name: name)
    }

    /// The usage description for `key`, or `nil` when it is missing, empty or only whitespace.
    ///
    /// ```swift
    /// app.usageDescription(for: .update)   // "Saves the walks you log."
    /// ```
    ///
    /// - Parameter key: Which description.
    /// - Returns: The text, or `nil` when it would not satisfy HealthKit.
    public func usageDescription(for key: HealthStoreError.UsageDescription) -> String? {
        let text = key == .share ? healthShareUsageDescription : healthUpdateUsageDescription
        guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
        return text
    }
}
