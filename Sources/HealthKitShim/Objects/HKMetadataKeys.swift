/// Metadata key: why insulin was delivered (`HKInsulinDeliveryReason` raw value); required on
/// insulinDelivery samples.
public let HKMetadataKeyInsulinDeliveryReason = "HKInsulinDeliveryReason"

/// Metadata key: whether the sample was entered by the person (a Boolean number).
public let HKMetadataKeyWasUserEntered = "HKWasUserEntered"

/// Metadata key: an app-defined identifier that makes saves idempotent (with `HKMetadataKeySyncVersion`).
public let HKMetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"

/// Metadata key: the version that goes with `HKMetadataKeySyncIdentifier`.
public let HKMetadataKeySyncVersion = "HKMetadataKeySyncVersion"

/// Metadata key: the name of the food a food correlation describes.
public let HKMetadataKeyFoodType = "HKFoodType"

/// Metadata key: an identifier the sample has in another system.
public let HKMetadataKeyExternalUUID = "HKExternalUUID"

/// Why insulin was delivered, the value of `HKMetadataKeyInsulinDeliveryReason`.
public enum HKInsulinDeliveryReason: Int, Sendable {
    /// Background insulin.
    case basal = 1
    /// A dose for a meal or a correction.
    case bolus = 2
}

/// The sort key for a sample's start date, for `NSSortDescriptor(key:ascending:)`.
public let HKSampleSortIdentifierStartDate = "startDate"

/// The sort key for a sample's end date, for `NSSortDescriptor(key:ascending:)`.
public let HKSampleSortIdentifierEndDate = "endDate"

/// The limit that means "no limit" for sample and anchored queries.
public let HKObjectQueryNoLimit = 0
