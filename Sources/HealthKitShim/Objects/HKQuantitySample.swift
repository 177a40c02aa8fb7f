import Foundation
import HealthFlow

/// A sample with a quantity (height, steps, heart rate). Making one with a unit incompatible with its type,
/// or without metadata its type requires (insulin's delivery reason), raises, as in HealthKit.
public final class HKQuantitySample: HKSample, @unchecked Sendable {
    /// A quantity sample with metadata.
    public convenience init(
        type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
        metadata: [String: Any]?
    ) {
        self.init(metadata: metadata) { metadata, source throws(ValidationError) in
            .quantity(
                try HealthQuantitySample(
                    type: quantityType.healthFlowType, quantity: quantity.healthFlowQuantity, start: startDate,
                    end: endDate, source: source, metadata: metadata))
        }
    }

    /// A quantity sample without metadata.
    public convenience init(
        type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date
    ) {
        self.init(type: quantityType, quantity: quantity, start: startDate, end: endDate, metadata: nil)
    }

    /// A quantity sample from a device, with metadata (the shim records no device).
    public convenience init(
        type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
        device: HKDevice?, metadata: [String: Any]?
    ) {
        self.init(type: quantityType, quantity: quantity, start: startDate, end: endDate, metadata: metadata)
    }

    private var healthFlowQuantitySample: HealthQuantitySample? {
        if case .quantity(let sample) = healthFlowSample { return sample }
        return nil
    }

    /// The sample's quantity.
    public var quantity: HKQuantity {
        HKQuantity(
            healthFlowQuantity: healthFlowQuantitySample?.quantity
                ?? HealthQuantity(unit: .count(), doubleValue: 0))
    }

    /// The sample's quantity type.
    public var quantityType: HKQuantityType { HKQuantityType(healthFlowType: healthFlowSample.type) }

    /// How many quantities the sample aggregates (always 1 for samples an app saves).
    public var count: Int { 1 }
}
