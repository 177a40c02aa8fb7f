import Foundation
import HealthFlow

/// The realistic data the store, gzip and sync benchmarks run on: ``HealthDataGenerator`` output (seeded, so every
/// run measures the same samples), attributed to the benchmark app so that the app may save it.
public enum BenchmarkData {
    /// The app every benchmark store belongs to.
    public static let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.healthflow-benchmarks", name: "HealthFlow Benchmarks",
        healthShareUsageDescription: "Reads your data to measure the library.",
        healthUpdateUsageDescription: "Saves generated data to measure the library.")

    /// The app as a sample source.
    public static let source = HealthSource(bundleIdentifier: app.bundleIdentifier, name: app.name)

    /// Generated data for `days` days from seed 1; every sample's source is the benchmark app.
    ///
    /// - Parameters:
    ///   - days: How many days.
    ///   - resolution: How finely steps are recorded.
    /// - Returns: The data.
    /// - Throws: ``HealthFlow/GeneratorError`` for an impossible configuration.
    public static func generated(
        days: Int, resolution: GeneratorConfiguration.StepResolution
    ) throws -> GeneratedHealthData {
        let configuration = GeneratorConfiguration(
            days: days, seed: 1, stepResolution: resolution, phone: source, watch: source, devices: source)
        return try HealthDataGenerator(configuration: configuration).generate()
    }

    /// The quantity and category samples of `data` (no correlations: an app saves their members instead).
    ///
    /// - Parameter data: Generated data.
    /// - Returns: Its quantity and category samples, type by type.
    public static func plainSamples(of data: GeneratedHealthData) -> [HealthSample] {
        data.allSamples().filter { sample in
            if case .correlation = sample { return false }
            return true
        }
    }

    /// The sample types present in `data`, in identifier order.
    ///
    /// - Parameter data: Generated data.
    /// - Returns: Every type that has samples.
    public static func sampleTypes(of data: GeneratedHealthData) -> [HealthObjectType] {
        var types = Set(data.quantitySamples.keys).union(data.categorySamples.keys)
        for correlation in data.correlations { types.insert(correlation.type) }
        return types.sorted { $0.identifier < $1.identifier }
    }
}
