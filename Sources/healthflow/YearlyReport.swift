import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

/// The demo's operation graph: authorize, then four yearly totals (at most two at a time), then one report line.
///
/// One description serves the run and the drawing: the demo runs this chain, and README's Mermaid diagram of it
/// is ``diagram`` (a test checks that README shows exactly that).
enum YearlyReport {
    /// The chain, not started; its totals cover the 365 days before `end`.
    static func chain(store: any HealthStore, endingAt end: Date, calendar: Calendar) -> OperationChain<String> {
        let yearAgo = calendar.date(byAdding: .day, value: -365, to: end) ?? end
        let year = SamplePredicate.samples(withStart: yearAgo, end: end)
        func total(_ name: String, _ type: HealthObjectType, _ unit: HealthUnit, _ label: String)
            -> GraphStep<Void, String>
        {
            .promise(name) { _ in
                store.statistics(of: type, matching: year, options: .cumulativeSum)
                    .map { statistics in
                        let sum = statistics?.sumQuantity()
                        let text =
                            label.isEmpty
                            ? grouped(rounding: (try? sum?.doubleValue(for: unit)) ?? 0)
                            : formatted(sum, unit, label)
                        return "\(name) \(text)"
                    }
            }
        }
        return OperationChain(name: "yearly report", maxConcurrentNodes: 2, recordsTrace: true)
            .then(
                "authorize",
                promise: { _ in
                    store.requestAuthorization(toShare: [], read: [.distanceWalkingRunning, .appleExerciseTime])
                }
            )
            .when([
                total("steps", .stepCount, .count(), ""),
                total("distance", .distanceWalkingRunning, .meterUnit(with: .kilo), "km"),
                total("energy", .activeEnergyBurned, .kilocalorie(), "kcal"),
                total("exercise", .appleExerciseTime, .hour(), "h"),
            ])
            .then("report") { totals in totals.joined(separator: " · ") }
    }

    /// The chain drawn as a Mermaid flowchart (the store is not touched: nothing runs).
    static var diagram: String {
        chain(
            store: InMemoryHealthStore(configuration: ExampleContext.app), endingAt: Date(timeIntervalSince1970: 0),
            calendar: Calendar(identifier: .gregorian)
        )
        .graph.mermaid
    }
}
