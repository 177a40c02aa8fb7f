import Foundation
import HealthFlow

/// The type of a HealthKit object: the root of the type hierarchy (`HKSampleType`, `HKQuantityType`,
/// `HKCategoryType`, `HKCorrelationType`, `HKCharacteristicType`, `HKActivitySummaryType`,
/// `HKElectrocardiogramType`). Behind the name it is one of HealthFlow's catalog types.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public class HKObjectType: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowType: HealthObjectType

    init(healthFlowType: HealthObjectType) {
        self.healthFlowType = healthFlowType
    }

    /// The type's identifier, e.g. `"HKQuantityTypeIdentifierHeight"`.
    public var identifier: String { healthFlowType.healthKitIdentifier }

    /// Types are equal when their identifiers are.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKObjectType)?.identifier == identifier
    }

    /// A hash of the identifier.
    public override var hash: Int { identifier.hashValue }

    /// The identifier.
    public override var description: String { identifier }

    /// The quantity type with this identifier, or `nil` when the identifier is unknown.
    public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        HKShimTypes.type(identifier.rawValue, kind: .quantity).map(HKQuantityType.init(healthFlowType:))
    }

    /// The category type with this identifier, or `nil` when the identifier is unknown.
    public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        HKShimTypes.type(identifier.rawValue, kind: .category).map(HKCategoryType.init(healthFlowType:))
    }

    /// The characteristic type with this identifier, or `nil` when the identifier is unknown.
    public class func characteristicType(forIdentifier identifier: HKCharacteristicTypeIdentifier)
        -> HKCharacteristicType?
    {
        HKShimTypes.type(identifier.rawValue, kind: .characteristic).map(HKCharacteristicType.init(healthFlowType:))
    }

    /// The correlation type with this identifier, or `nil` when the identifier is unknown.
    public class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
        HKShimTypes.type(identifier.rawValue, kind: .correlation).map(HKCorrelationType.init(healthFlowType:))
    }

    /// The activity summary type.
    public class func activitySummaryType() -> HKActivitySummaryType {
        HKActivitySummaryType(healthFlowType: .activitySummary)
    }

    /// The electrocardiogram type.
    public class func electrocardiogramType() -> HKElectrocardiogramType {
        HKElectrocardiogramType(healthFlowType: .electrocardiogram)
    }
}

/// The type of a sample (an object with a start and an end date).
public class HKSampleType: HKObjectType, @unchecked Sendable {}

/// The type of a quantity sample, with its aggregation style.
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
    /// The quantity type for a known identifier (iOS 15's initialiser; unknown identifiers raise, as in
    /// HealthKit).
    public convenience init(_ identifier: HKQuantityTypeIdentifier) {
        guard let type = HKShimTypes.type(identifier.rawValue, kind: .quantity) else {
            HKShimException.raise("Invalid quantity type identifier \(identifier.rawValue)")
        }
        self.init(healthFlowType: type)
    }

    /// How samples of this type combine in statistics.
    public var aggregationStyle: HKQuantityAggregationStyle {
        switch healthFlowType.aggregationStyle ?? .discreteArithmetic {
        case .cumulative: .cumulative
        case .discreteArithmetic: .discreteArithmetic
        case .discreteTemporallyWeighted: .discreteTemporallyWeighted
        case .discreteEquivalentContinuousLevel: .discreteEquivalentContinuousLevel
        }
    }

    /// Whether quantities of this type may be expressed in `unit`.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        healthFlowType.canonicalUnit?.isCompatible(with: unit.healthFlowUnit) ?? false
    }
}

/// The type of a category sample.
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    /// The category type for a known identifier (unknown identifiers raise, as in HealthKit).
    public convenience init(_ identifier: HKCategoryTypeIdentifier) {
        guard let type = HKShimTypes.type(identifier.rawValue, kind: .category) else {
            HKShimException.raise("Invalid category type identifier \(identifier.rawValue)")
        }
        self.init(healthFlowType: type)
    }
}

/// The type of a correlation (blood pressure, food).
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
    /// The correlation type for a known identifier (unknown identifiers raise, as in HealthKit).
    public convenience init(_ identifier: HKCorrelationTypeIdentifier) {
        guard let type = HKShimTypes.type(identifier.rawValue, kind: .correlation) else {
            HKShimException.raise("Invalid correlation type identifier \(identifier.rawValue)")
        }
        self.init(healthFlowType: type)
    }
}

/// The type of a characteristic (date of birth, biological sex, …), read-only.
public final class HKCharacteristicType: HKObjectType, @unchecked Sendable {
    /// The characteristic type for a known identifier (unknown identifiers raise, as in HealthKit).
    public convenience init(_ identifier: HKCharacteristicTypeIdentifier) {
        guard let type = HKShimTypes.type(identifier.rawValue, kind: .characteristic) else {
            HKShimException.raise("Invalid characteristic type identifier \(identifier.rawValue)")
        }
        self.init(healthFlowType: type)
    }
}

/// The type of activity summaries (the rings), read-only.
public final class HKActivitySummaryType: HKObjectType, @unchecked Sendable {}

/// The type of electrocardiograms, read-only.
public final class HKElectrocardiogramType: HKSampleType, @unchecked Sendable {}

/// How quantities of a type combine: summed, or averaged.
public enum HKQuantityAggregationStyle: Int, Sendable {
    /// Summed over time (steps, energy).
    case cumulative = 0
    /// Averaged arithmetically (height, body mass).
    case discreteArithmetic = 1
    /// Averaged weighted by time (heart rate).
    case discreteTemporallyWeighted = 2
    /// Averaged as an equivalent continuous level (audio exposure).
    case discreteEquivalentContinuousLevel = 3
}

/// Lookup of HealthFlow catalog types by HealthKit identifier and kind.
enum HKShimTypes {
    static func type(_ identifier: String, kind: HealthObjectType.Kind) -> HealthObjectType? {
        guard let type = HealthObjectType(identifier: identifier), type.kind == kind,
            type.healthKitIdentifier == identifier
        else { return nil }
        return type
    }

    /// The HealthKit class for a HealthFlow type.
    static func objectType(_ type: HealthObjectType) -> HKObjectType {
        switch type.kind {
        case .quantity: HKQuantityType(healthFlowType: type)
        case .category: HKCategoryType(healthFlowType: type)
        case .correlation: HKCorrelationType(healthFlowType: type)
        case .characteristic: HKCharacteristicType(healthFlowType: type)
        case .activitySummary: HKActivitySummaryType(healthFlowType: type)
        case .electrocardiogram: HKElectrocardiogramType(healthFlowType: type)
        case .workout, .heartbeatSeries: HKSampleType(healthFlowType: type)
        }
    }
}
