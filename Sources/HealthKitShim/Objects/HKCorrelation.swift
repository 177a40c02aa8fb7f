import Foundation
import HealthFlow

/// Samples that belong together: a blood pressure reading (systolic + diastolic) or a food.
public final class HKCorrelation: HKSample, @unchecked Sendable {
    /// A correlation with metadata; members that are not quantity samples, or a wrong set of members,
    /// raise as in HealthKit.
    public convenience init(
        type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date, objects: Set<HKSample>,
        metadata: [String: Any]?
    ) {
        var members = Set<HealthQuantitySample>()
        for object in objects {
            guard case .quantity(let member) = object.healthFlowSample else {
                HKShimException.raise("\(correlationType.identifier) may only contain quantity samples")
            }
            members.insert(member)
        }
        self.init(metadata: metadata) { metadata, source throws(ValidationError) in
            .correlation(
                try HealthCorrelation(
                    type: correlationType.healthFlowType, start: startDate, end: endDate, objects: members,
                    source: source, metadata: metadata))
        }
    }

    /// A correlation without metadata.
    public convenience init(
        type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date, objects: Set<HKSample>
    ) {
        self.init(type: correlationType, start: startDate, end: endDate, objects: objects, metadata: nil)
    }

    private var members: Set<HealthQuantitySample> {
        if case .correlation(let correlation) = healthFlowSample { return correlation.objects }
        return []
    }

    /// The member samples.
    public var objects: Set<HKSample> { Set(members.map { HKObject.make(.quantity($0)) }) }

    /// The members of one type.
    public func objects(for objectType: HKObjectType) -> Set<HKSample> {
        Set(members.filter { $0.type == objectType.healthFlowType }.map { HKObject.make(.quantity($0)) })
    }

    /// The correlation's type.
    public var correlationType: HKCorrelationType { HKCorrelationType(healthFlowType: healthFlowSample.type) }
}
