import ExampleSupport
import Foundation
import HealthExport
import HealthFlow

/// The async style: import, then the three queries at once (`async let`), then the summary. Cancelling the
/// task cancels the import at its next batch: the store keeps whole batches, and running it again resumes
/// (records already stored are recognised and not added twice).
///
/// - Parameters:
///   - path: The export (`export.xml`, its folder, or `export.zip`).
///   - context: The store and the clock.
/// - Returns: The summary's lines.
public func importAndSummarizeAsync(_ path: String, in context: ExampleContext) async throws -> [String] {
    let store = context.store
    let week = SummaryWeek(before: context.now)
    let report = try await HealthExportImport(path: path).run(into: store)
    async let steps = store.statisticsCollection(
        of: .stepCount, matching: week.predicate, options: .cumulativeSum, anchorDate: week.start,
        intervalComponents: oneDay, calendar: utcCalendar)
    async let heartRate = store.statistics(of: .heartRate, matching: week.predicate, options: .discreteAverage)
    async let bodyMass: [HealthSample] = store.samples(of: .bodyMass, sortedBy: latestFirst, limit: 1)
    return try await summaryLines(import: report, steps: steps, heartRate: heartRate, bodyMass: bodyMass)
}
