/// HealthFlow: a faithful model of HealthKit's rules (units, types, samples, authorization, queries),
/// health stores, and the workflows built on FlowKit.
///
/// The model layer is self-contained:
/// - Units: `HealthUnit` (HealthKit's unit-string grammar, dimensions, exact conversion), `HealthQuantity`.
/// - Types: `HealthObjectType` (the catalog), `MetadataKey`, `MetadataValue`, typed category values.
/// - Samples: `HealthQuantitySample`, `HealthCategorySample`, `HealthCorrelation`, `HealthElectrocardiogram`,
///   `HealthWorkout`, `HealthHeartbeatSeries`,
///   wrapped by `HealthSample`; `HealthDeletedObject` tombstones. Invalid samples throw `ValidationError`.
///
/// The store layer keeps HealthKit's rules about writing and reading:
/// - `HealthStore` (the `HKHealthStore` callback API) with promise and async twins; `InMemoryHealthStore`.
/// - Authorization: `HealthAppConfiguration`, `AuthorizationPolicy`, `AuthorizationStatus`; errors are
///   `HealthStoreError` values with HealthKit's codes.
/// - Queries: `HealthSampleQuery`, `HealthAnchoredObjectQuery`, `HealthObserverQuery`, `SamplePredicate`.
public enum HealthFlow {}
