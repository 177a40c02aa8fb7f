import ExampleSupport
import Foundation
import HealthFlow

/// Seed 001's pitfalls: each thing that makes real HealthKit crash (or silently misbehave) — a wrong unit,
/// missing required metadata, sharing a read-only type, authorizing a correlation type, a malformed compound
/// unit, an invalid category value — and the typed error our store returns instead, beside the calls that
/// succeed. Three files walk the same list: `SafeWrites+Callback.swift`, `SafeWrites+Promise.swift`,
/// `SafeWrites+Async.swift`.
public enum SafeWritesExample: HealthExample {
    /// `safe-writes`.
    public static let name = "safe-writes"
    /// What it shows.
    public static let summary = "seed 001's pitfalls: the typed error (or success) where HealthKit would crash"

    /// Runs one style.
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        switch style {
        case .callback: await awaitCallback { safeWritesWithCallbacks(in: context, completion: $0) }
        case .promise: await awaitPromise(safeWritesWithPromises(in: context))
        case .async: await awaitAsync { try await safeWritesAsync(in: context) }
        }
    }
}

/// One step of the tour: an authorization request or a save of a sample built (and validated) on the spot.
struct Pitfall: Sendable {
    enum Action: Sendable {
        case authorize(share: Set<HealthObjectType>, read: Set<HealthObjectType>)
        case save(@Sendable (ExampleContext) throws -> HealthSample)
    }

    let title: String
    let action: Action

    /// The printed line: `✓ title`, or `✗ title → ErrorType: description`.
    func line(_ outcome: Result<Void, any Error>) -> String {
        switch outcome {
        case .success: "✓ \(title)"
        case .failure(let error): "✗ \(title) → \(type(of: error)): \(error)"
        }
    }
}

/// The tour, in order. Later saves rely on the earlier authorizations.
let pitfalls: [Pitfall] = [
    Pitfall(
        title: "authorize water and steps",
        action: .authorize(share: [.dietaryWater, .stepCount], read: [.dietaryWater, .stepCount])),
    Pitfall(
        title: "save 300 steps in grams",
        action: .save { context in
            .quantity(try quantity(.stepCount, 300, "g", context))
        }),
    Pitfall(
        title: "save 250 mL of water",
        action: .save { context in
            .quantity(try quantity(.dietaryWater, 250, "mL", context))
        }),
    Pitfall(
        title: "ask to share appleExerciseTime (read-only)", action: .authorize(share: [.appleExerciseTime], read: [])),
    Pitfall(title: "ask for the bloodPressure correlation type", action: .authorize(share: [], read: [.bloodPressure])),
    Pitfall(
        title: "authorize insulin, VO₂max, sleep and systolic blood pressure (diastolic comes with it)",
        action: .authorize(share: [.insulinDelivery, .vo2Max, .sleepAnalysis, .bloodPressureSystolic], read: [])),
    Pitfall(
        title: "save 4 IU of insulin without a delivery reason",
        action: .save { context in
            .quantity(try quantity(.insulinDelivery, 4, "IU", context))
        }),
    Pitfall(
        title: "save 4 IU of bolus insulin",
        action: .save { context in
            .quantity(
                try quantity(
                    .insulinDelivery, 4, "IU", context,
                    metadata: [.insulinDeliveryReason: InsulinDeliveryReason.bolus.metadataValue]))
        }),
    Pitfall(
        title: "save VO₂max 42 in mL/kg/min",
        action: .save { context in
            .quantity(try quantity(.vo2Max, 42, "mL/kg/min", context))
        }),
    Pitfall(
        title: "save VO₂max 42 in mL/(kg*min)",
        action: .save { context in
            .quantity(try quantity(.vo2Max, 42, "mL/(kg*min)", context))
        }),
    Pitfall(
        title: "save 90 minutes of REM sleep",
        action: .save { context in
            .category(
                try HealthCategorySample(
                    SleepAnalysisValue.asleepREM, start: context.now.addingTimeInterval(-5_400), end: context.now,
                    source: context.source))
        }),
    Pitfall(
        title: "save sleep with category value 9",
        action: .save { context in
            .category(
                try HealthCategorySample(
                    type: .sleepAnalysis, value: 9, start: context.now.addingTimeInterval(-600), end: context.now,
                    source: context.source))
        }),
    Pitfall(
        title: "save blood pressure 120/80 mmHg as a correlation",
        action: .save { context in
            let mmHg = try HealthUnit(from: "mmHg")
            return .correlation(
                try HealthCorrelation.bloodPressure(
                    systolic: HealthQuantity(unit: mmHg, doubleValue: 120),
                    diastolic: HealthQuantity(unit: mmHg, doubleValue: 80), start: context.now, end: context.now,
                    source: context.source))
        }),
]

/// A quantity sample over the last minute, its unit parsed from HealthKit's unit-string grammar.
func quantity(
    _ type: HealthObjectType, _ value: Double, _ unit: String, _ context: ExampleContext,
    metadata: [MetadataKey: MetadataValue] = [:]
) throws -> HealthQuantitySample {
    try HealthQuantitySample(
        type: type, quantity: HealthQuantity(unit: try HealthUnit(from: unit), doubleValue: value),
        start: context.now.addingTimeInterval(-60), end: context.now, source: context.source, metadata: metadata)
}
