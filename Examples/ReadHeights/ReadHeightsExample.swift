import ExampleSupport
import Foundation
import HealthFlow

/// Seed 000, "read heights": make sure the type is available (ask, then verify), fetch every height sorted by
/// end date, newest first, and list them. Three files: `ReadHeights+Callback.swift`, `ReadHeights+Promise.swift`,
/// `ReadHeights+Async.swift`.
public enum ReadHeightsExample: HealthExample {
    /// `read-heights`.
    public static let name = "read-heights"
    /// What it shows.
    public static let summary = "available type → fetch heights sorted by end date, newest first → list"

    /// Saves three heights measured over two years, so there is something to read.
    public static func prepare(_ context: ExampleContext) async throws {
        try await context.store.availableType(.height)
        let days: [Double] = [730, 365, 30]
        let samples = try days.enumerated().map { index, daysAgo in
            HealthSample.quantity(
                try HealthQuantitySample(
                    type: .height, quantity: HealthQuantity(unit: .meter(), doubleValue: 1.70 + 0.01 * Double(index)),
                    date: context.now.addingTimeInterval(-daysAgo * 86_400), source: context.source))
        }
        try await context.store.save(samples)
    }

    /// Runs one style.
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        switch style {
        case .callback: await awaitCallback { readHeightsWithCallbacks(in: context, completion: $0) }
        case .promise: await awaitPromise(readHeightsWithPromises(in: context))
        case .async: await awaitAsync { try await readHeightsAsync(in: context) }
        }
    }
}

/// The newest-first sort every style asks for.
let newestFirst: [SampleSortDescriptor] = [.endDate(ascending: false)]

/// One printed line per height: `1.72 m  2026-10-21`.
func heightLines(_ samples: [HealthSample]) -> [String] {
    samples.compactMap { sample in
        guard case .quantity(let height) = sample else { return nil }
        return "\(height.quantity)  \(formatDay(height.endDate))"
    }
}
