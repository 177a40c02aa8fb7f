import Foundation
import HealthFlow

/// A sample with a quantity (height, steps, heart rate). Making one with a unit incompatible with its type,
/// or without metadata its type requires (insulin's delivery reason), raises, as in HealthKit.
///
/// ```swift
/// let height = HKQuantitySample(
///     type: HKQuantityType(.height), quantity: HKQuantity(unit: .meter(), doubleValue: 1.8),
///     start: Date(), end: Date())
/// ```
public final class HKQuantitySample: HKSample, @unchecked Sendable {
    /// A quantity sample with metadata.
    ///
    /// ```swift
    /// let dose = HKQuantitySample(
    ///     type: HKQuantityType(.insulinDelivery), quantity: HKQuantity(unit: .internationalUnit(), doubleValue: 4),
    ///     start: now, end: now, metadata: [HKMetadataKeyInsulinDeliveryReason: HKInsulinDeliveryReason.bolus.rawValue])
    /// ```
    public convenience init(
        type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
        metadata: [String: Any]?
    ) {
        let metadata = ShimMetadata.healthFlow(metadata)
        let sample = Self.validated { () throws(ValidationError) in
            .quantity(
                try HealthQuantitySample(
                    type: quantityType.healthFlowType, quantity: quantity.healthFlowQuantity, start: startDate,
                    end: endDate, source: ShimPlaceholder.source, metadata: metadata))
        }
        self.init(healthFlowSample: sample)
    }

    /// A quantity sample without metadata.
    ///
    /// ```swift
    /// let steps = HKQuantitySample(
    ///     type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 120), start: a, end: b)
    /// ```
    public convenience init(
        type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date
    ) {
        self.init(type: quantityType, quantity: quantity, start: startDate, end: endDate, metadata: nil)
    }

    /// A quantity sample from a device, with metadata (the shim records no device).
    ///
    /// ```swift
    /// let beat = HKQuantitySample(
    ///     type: HKQuantityType(.heartRate), quantity: bpm, start: now, end: now, device: .local(), metadata: nil)
    /// ```
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
    ///
    /// ```swift
    /// sample.quantity.doubleValue(for: .meter())
    /// ```
    public var quantity: HKQuantity {
        HKQuantity(
            healthFlowQuantity: healthFlowQuantitySample?.quantity
                ?? HealthQuantity(unit: .count(), doubleValue: 0))
    }

    /// The sample's quantity type.
    ///
    /// ```swift
    /// sample.quantityType == HKQuantityType(.height)
    /// ```
    public var quantityType: HKQuantityType { HKQuantityType(healthFlowType: healthFlowSample.type) }

    /// How many quantities the sample aggregates (always 1 for samples an app saves).
    ///
    /// ```swift
    /// sample.count   // 1
    /// ```
    public var count: Int { 1 }
}
