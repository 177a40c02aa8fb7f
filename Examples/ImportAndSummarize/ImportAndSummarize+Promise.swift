import ExampleSupport
import FlowKit
import Foundation
import HealthExport
import HealthFlow

/// The promise style: the import is one promise; the three queries run at once after it (`when`), and the
/// summary is one `map` over their values. One `catch` (the caller's) sees any error.
///
/// - Parameters:
///   - path: The export (`export.xml`, its folder, or `export.zip`).
///   - context: The store and the clock.
/// - Returns: A promise of the summary's lines; cancelling it cancels the import.
public func importAndSummarizeWithPromises(_ path: String, in context: ExampleContext) -> Promise<[String]> {
    let store = context.store
    let week = SummaryWeek(before: context.now)
    return HealthExportImport(path: path).start(into: store).then { report in
        when(
            fulfilled: store.statisticsCollection(
                of: .stepCount, matching: week.predicate, options: .cumulativeSum, anchorDate: week.start,
                intervalComponents: oneDay, calendar: utcCalendar),
            store.statistics(of: .heartRate, matching: week.predicate, options: .discreteAverage),
            store.samples(of: .bodyMass, sortedBy: latestFirst, limit: 1)
        ).map { steps, heartRate, bodyMass in
            summaryLines(import: report, steps: steps, heartRate: heartRate, bodyMass: bodyMass)
        }
    }
}
