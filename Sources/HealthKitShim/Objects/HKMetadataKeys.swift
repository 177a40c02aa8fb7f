/// Metadata key: why insulin was delivered (`HKInsulinDeliveryReason` raw value); required on
/// insulinDelivery samples.
///
/// ```swift
/// let metadata: [String: Any] = [HKMetadataKeyInsulinDeliveryReason: HKInsulinDeliveryReason.bolus.rawValue]
/// ```
public let HKMetadataKeyInsulinDeliveryReason = "HKInsulinDeliveryReason"

/// Metadata key: whether the sample was entered by the person (a Boolean number).
///
/// ```swift
/// let metadata: [String: Any] = [HKMetadataKeyWasUserEntered: true]
/// ```
public let HKMetadataKeyWasUserEntered = "HKWasUserEntered"

/// Metadata key: an app-defined identifier that makes saves idempotent (with `HKMetadataKeySyncVersion`).
///
/// ```swift
/// let metadata: [String: Any] = [HKMetadataKeySyncIdentifier: "row-42", HKMetadataKeySyncVersion: 1]
/// ```
public let HKMetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"

/// Metadata key: the version that goes with `HKMetadataKeySyncIdentifier`.
///
/// ```swift
/// let metadata: [String: Any] = [HKMetadataKeySyncIdentifier: "row-42", HKMetadataKeySyncVersion: 1]
/// ```
public let HKMetadataKeySyncVersion = "HKMetadataKeySyncVersion"

/// Metadata key: the name of the food a food correlation describes.
///
/// ```swift
/// let metadata: [String: Any] = [HKMetadataKeyFoodType: "Apple"]
/// ```
public let HKMetadataKeyFoodType = "HKFoodType"

/// Metadata key: an identifier the sample has in another system.
///
/// ```swift
/// let metadata: [String: Any] = [HKMetadataKeyExternalUUID: "A1B2"]
/// ```
public let HKMetadataKeyExternalUUID = "HKExternalUUID"

/// Why insulin was delivered, the value of `HKMetadataKeyInsulinDeliveryReason`.
///
/// ```swift
/// HKInsulinDeliveryReason.basal.rawValue   // 1
/// ```
public enum HKInsulinDeliveryReason: Int, Sendable {
    /// Background insulin.
    case basal = 1
    /// A dose for a meal or a correction.
    case bolus = 2
}

/// The sort key for a sample's start date, for `NSSortDescriptor(key:ascending:)`.
///
/// ```swift
/// let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
/// ```
public let HKSampleSortIdentifierStartDate = "startDate"

/// The sort key for a sample's end date, for `NSSortDescriptor(key:ascending:)`.
///
/// ```swift
/// let byEnd = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: true)
/// ```
public let HKSampleSortIdentifierEndDate = "endDate"

/// The limit that means "no limit" for sample and anchored queries.
///
/// ```swift
/// HKSampleQuery(sampleType: type, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, _, _ in }
/// ```
public let HKObjectQueryNoLimit = 0
