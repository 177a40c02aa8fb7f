import ExampleSupport
import Foundation
import HealthExport
import HealthFlow

/// The callback style: the import's completion starts the first query, whose handler starts the next, and so
/// on — four levels deep, each handing its error to `completion` itself.
///
/// - Parameters:
///   - path: The export (`export.xml`, its folder, or `export.zip`).
///   - context: The store and the clock.
///   - completion: Called once with the summary's lines or the first error.
public func importAndSummarizeWithCallbacks(
    _ path: String, in context: ExampleContext,
    completion: @escaping @Sendable (Result<[String], any Error>) -> Void
) {
    let store = context.store
    let week = SummaryWeek(before: context.now)
    HealthExportImport(path: path).start(into: store) { imported in
        guard case .success(let report) = imported else { return completion(imported.map { _ in [] }) }
        store.execute(
            HealthStatisticsCollectionQuery(
                quantityType: .stepCount, quantitySamplePredicate: week.predicate, options: .cumulativeSum,
                anchorDate: week.start, intervalComponents: oneDay, calendar: utcCalendar
            ) { _, steps, error in
                guard let steps else { return completion(.failure(error ?? HealthStoreError.noData(.stepCount))) }
                store.execute(
                    HealthStatisticsQuery(
                        quantityType: .heartRate, quantitySamplePredicate: week.predicate, options: .discreteAverage
                    ) { _, heartRate, error in
                        switch error {  // a week without heart rate is an answer, not a failure
                        case nil, HealthStoreError.noData?: break
                        case let error?: return completion(.failure(error))
                        }
                        store.execute(
                            HealthSampleQuery(sampleType: .bodyMass, limit: 1, sortDescriptors: latestFirst) {
                                _, bodyMass, error in
                                guard let bodyMass else {
                                    return completion(.failure(error ?? HealthStoreError.noData(.bodyMass)))
                                }
                                completion(
                                    .success(
                                        summaryLines(
                                            import: report, steps: steps, heartRate: heartRate, bodyMass: bodyMass)))
                            })
                    })
            })
    }
}
