/// What the identifier structs (`HKQuantityTypeIdentifier`, `HKCategoryTypeIdentifier`,
/// `HKCorrelationTypeIdentifier`, `HKCharacteristicTypeIdentifier`) share: HealthKit's typed identifier
/// strings, each a `RawRepresentable` string that can also be made with `init(_:)`.
///
/// HealthKit has no such protocol, so its name starts with an underscore: code written against the shim must
/// compile against HealthKit too, and the underscore keeps it out of the shim's API list.
public protocol _HKTypeIdentifier: RawRepresentable, Hashable, Sendable where RawValue == String {
    init(rawValue: String)
}

extension _HKTypeIdentifier {
    /// Wraps an identifier string.
    public init(_ rawValue: String) {
        self.init(rawValue: rawValue)
    }
}
