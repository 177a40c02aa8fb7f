import Foundation

/// The generated person's constants, drawn once per seed.
struct PersonProfile: Sendable {
    let restingHeartRate: Double
    let bodyMassStart: Double
    let bodyMassDriftPerYear: Double
    let height: Double
    let walkingStride: Double
    let runningStride: Double
    /// Scales bout lengths and the chance of working out, 0.8–1.2.
    let activityLevel: Double
    let systolic: Double
    let diastolic: Double
    let fastingGlucose: Double

    init(rng: inout SeededRandomNumberGenerator) {
        restingHeartRate = min(72, max(50, rng.normal(mean: 60, standardDeviation: 4)))
        bodyMassStart = rng.uniform(in: 58...95)
        bodyMassDriftPerYear = min(3, max(-3, rng.normal(mean: 0, standardDeviation: 1.5)))
        height = rng.uniform(in: 1.58...1.92)
        walkingStride = height * 0.415
        runningStride = height * 0.65
        activityLevel = rng.uniform(in: 0.8...1.2)
        systolic = min(135, max(105, rng.normal(mean: 118, standardDeviation: 6)))
        diastolic = min(88, max(65, rng.normal(mean: 76, standardDeviation: 4)))
        fastingGlucose = min(105, max(80, rng.normal(mean: 92, standardDeviation: 5)))
    }
}

/// Independent, reproducible random streams derived from the seed, so that one part of the data (say,
/// the step resolution) never shifts the randomness of another.
enum RandomStream: UInt64 {
    case profile = 1
    case schedule
    case activity
    case heartRate
    case sleep
    case measurements
    case identifiers

    /// A generator for this stream, for one index (a day, a type).
    func generator(seed: UInt64, index: UInt64 = 0) -> SeededRandomNumberGenerator {
        SeededRandomNumberGenerator(
            seed: Self.mix(seed ^ Self.mix(rawValue &* 0x9E37_79B9_7F4A_7C15 &+ Self.mix(index))))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
