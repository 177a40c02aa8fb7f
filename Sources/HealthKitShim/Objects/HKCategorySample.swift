import Foundation
import HealthFlow

/// A sample with a category value (sleep stages, menstrual flow). A value outside the type's values raises,
/// as in HealthKit.
public final class HKCategorySample: HKSample, @unchecked Sendable {
    /// A category sample with metadata.
    public convenience init(
        type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date, metadata: [String: Any]?
    ) {
        self.init(metadata: metadata) { metadata, source throws(ValidationError) in
            .category(
                try HealthCategorySample(
                    type: type.healthFlowType, value: value, start: startDate, end: endDate,
                    source: source, metadata: metadata))
        }
    }

    /// A category sample without metadata.
    public convenience init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date) {
        self.init(type: type, value: value, start: startDate, end: endDate, metadata: nil)
    }

    /// The category value.
    public var value: Int {
        if case .category(let sample) = healthFlowSample { return sample.value }
        return 0
    }

    /// The sample's category type.
    public var categoryType: HKCategoryType { HKCategoryType(healthFlowType: healthFlowSample.type) }
}

/// Sleep analysis values: HealthFlow's own enum, whose cases and raw values are HealthKit's.
public typealias HKCategoryValueSleepAnalysis = SleepAnalysisValue

/// Metadata key: whether a menstrual flow sample starts a cycle (a Boolean number); required on
/// menstrualFlow samples.
public let HKMetadataKeyMenstrualCycleStart = "HKMenstrualCycleStart"
