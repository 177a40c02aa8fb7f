/// Who the app is, as a health store sees it: its bundle identifier and name (which make its
/// ``HealthSource``) and the `Info.plist` usage descriptions HealthKit insists on.
///
/// Requesting to share (write) types needs ``healthUpdateUsageDescription`` (`NSHealthUpdateUsageDescription`);
/// requesting to read needs ``healthShareUsageDescription`` (`NSHealthShareUsageDescription`). A missing,
/// empty or blank description makes the request fail with
/// ``HealthStoreError/missingUsageDescription(_:)`` — where HealthKit would crash the app.
public struct HealthAppConfiguration: Hashable, Sendable, Codable {
    /// The app's bundle identifier; samples the app saves carry it as their source.
    public var bundleIdentifier: String
    /// The app's name as shown to people.
    public var name: String
    /// `NSHealthShareUsageDescription`: why the app reads health data. Needed to request read access.
    public var healthShareUsageDescription: String?
    /// `NSHealthUpdateUsageDescription`: why the app writes health data. Needed to request share access.
    public var healthUpdateUsageDescription: String?

    /// Makes a configuration.
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
    public var source: HealthSource {
        HealthSource(bundleIdentifier: bundleIdentifier, name: name)
    }

    /// The usage description for `key`, or `nil` when it is missing, empty or only whitespace.
    ///
    /// - Parameter key: Which description.
    /// - Returns: The text, or `nil` when it would not satisfy HealthKit.
    public func usageDescription(for key: HealthStoreError.UsageDescription) -> String? {
        let text = key == .share ? healthShareUsageDescription : healthUpdateUsageDescription
        guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
        return text
    }
}
