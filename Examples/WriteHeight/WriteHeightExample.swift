import ExampleSupport
import Foundation
import HealthFlow

/// Seed 000, "write a height": centimetres from the user → a metres sample → authorize → check the status →
/// save → "Saved!", or the error. The same steps in three files: `WriteHeight+Callback.swift`,
/// `WriteHeight+Promise.swift`, `WriteHeight+Async.swift`.
public enum WriteHeightExample: HealthExample {
    /// `write-height`.
    public static let name = "write-height"
    /// What it shows.
    public static let summary = "height in cm → metres sample → authorize → check status → save"
    /// The height the command line enters.
    public static let centimetres = 172.0

    /// Runs one style with ``centimetres``.
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        switch style {
        case .callback:
            await awaitCallback { writeHeightWithCallbacks(centimetres, in: context, completion: $0) }
        case .promise:
            await awaitPromise(writeHeightWithPromises(centimetres, in: context))
        case .async:
            await awaitAsync { try await writeHeightAsync(centimetres, in: context) }
        }
    }
}

/// The one piece all three styles share: turning the user's centimetres into a validated sample in metres.
///
/// - Parameters:
///   - centimetres: What the user typed.
///   - context: Where and when.
/// - Returns: A height sample in metres, dated now.
/// - Throws: `UnitError` or `ValidationError` (a negative or non-finite height).
public func heightSample(centimetres: Double, in context: ExampleContext) throws -> HealthQuantitySample {
    let metres = try HealthUnit.convert(centimetres, from: .meterUnit(with: .centi), to: .meter())
    return try HealthQuantitySample(
        type: .height, quantity: HealthQuantity(unit: .meter(), doubleValue: metres), date: context.now,
        source: context.source)
}

/// The line each style prints after saving.
func savedLine(_ sample: HealthQuantitySample) -> String {
    "Saved! \(sample.quantity)"
}
