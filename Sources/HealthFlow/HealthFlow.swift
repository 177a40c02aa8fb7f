/// HealthFlow: a faithful model of HealthKit's rules (units, types, samples, authorization, queries),
/// health stores, and the workflows built on FlowKit.
///
/// The model layer is self-contained:
/// - Units: `HealthUnit` (HealthKit's unit-string grammar, dimensions, exact conversion), `HealthQuantity`.
/// - Types: `HealthObjectType` (the catalog), `MetadataKey`, `MetadataValue`, typed category values.
/// - Samples: `HealthQuantitySample`, `HealthCategorySample`, `HealthCorrelation`, `HealthElectrocardiogram`,
///   wrapped by `HealthSample`; `HealthDeletedObject` tombstones. Invalid samples throw `ValidationError`.
///
/// ```swift
/// let vo2 = try HealthQuantitySample(
///     type: .vo2Max, quantity: HealthQuantity(unit: try HealthUnit(from: "mL/(kg*min)"), doubleValue: 45),
///     date: .now, source: HealthSource(bundleIdentifier: "com.example.app", name: "Example"))
/// ```
public enum HealthFlow {}
