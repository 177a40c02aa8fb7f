import Foundation

/// A generated data set: samples by type, blood-pressure correlations, and the activity summaries
/// derived from the samples.
public struct GeneratedHealthData: Hashable, Sendable {
    /// The configuration that produced the data.
    public let configuration: GeneratorConfiguration
    /// From the first day's midnight to the end of the last day.
    public let dateInterval: DateInterval
    /// Quantity samples by type, each array ascending by start date: `stepCount`,
    /// `distanceWalkingRunning`, `activeEnergyBurned`, `appleExerciseTime`, `appleStandTime`, `heartRate`,
    /// `bodyMass`, `height`, `bloodGlucose`. Blood pressure readings are in `correlations` only.
    public let quantitySamples: [HealthObjectType: [HealthQuantitySample]]
    /// Category samples by type, each ascending by start date: `sleepAnalysis` (each night an `inBed`
    /// sample from the phone and contiguous stages from the watch) and `appleStandHour`.
    public let categorySamples: [HealthObjectType: [HealthCategorySample]]
    /// Blood-pressure correlations, ascending by date.
    public let correlations: [HealthCorrelation]
    /// One summary per day, ascending, derived from the samples with `ActivitySummaryBuilder`.
    public let activitySummaries: [ActivitySummary]

    /// The quantity samples of one type, ascending by start date (empty for types not generated).
    ///
    /// - Parameter type: A quantity type.
    /// - Returns: The samples.
    public func quantitySamples(of type: HealthObjectType) -> [HealthQuantitySample] { quantitySamples[type] ?? [] }

    /// The category samples of one type, ascending by start date (empty for types not generated).
    ///
    /// - Parameter type: A category type.
    /// - Returns: The samples.
    public func categorySamples(of type: HealthObjectType) -> [HealthCategorySample] { categorySamples[type] ?? [] }

    /// How many samples `allSamples()` returns (correlations count once).
    public var sampleCount: Int {
        quantitySamples.values.reduce(0) { $0 + $1.count } + categorySamples.values.reduce(0) { $0 + $1.count }
            + correlations.count
    }

    /// Every sample, ascending by start date (ties: type identifier, then UUID), ready to save.
    ///
    /// - Returns: The samples.
    /// - Complexity: O(n log n); call it once and keep the result.
    public func allSamples() -> [HealthSample] {
        var samples: [HealthSample] = []
        samples.reserveCapacity(sampleCount)
        for type in quantitySamples.keys.sorted(by: { $0.identifier < $1.identifier }) {
            samples += quantitySamples(of: type).map(HealthSample.quantity)
        }
        for type in categorySamples.keys.sorted(by: { $0.identifier < $1.identifier }) {
            samples += categorySamples(of: type).map(HealthSample.category)
        }
        samples += correlations.map(HealthSample.correlation)
        samples.sort { lhs, rhs in
            if lhs.startDate != rhs.startDate { return lhs.startDate < rhs.startDate }
            if lhs.type != rhs.type { return lhs.type.identifier < rhs.type.identifier }
            return lhs.uuid.uuidString < rhs.uuid.uuidString
        }
        return samples
    }
}
