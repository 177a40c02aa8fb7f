import ExampleSupport
import FlowKit
import Foundation
import HealthExport
import HealthFlow

// Lesson: Examples/ImportAndSummarize/LESSON.md — stream a big file into the store, with progress, in order.
// Worked solutions of Examples/Exercises/ImportAndSummarizeExercises.swift (the tasks, with hints, are there).

/// Exercise 1, solved.
public func importReportingProgress(
    _ path: String, into store: any HealthStore, progress: @escaping @Sendable (Double) -> Void
) async throws -> HealthExportReport {
    let importer = HealthExportImport(path: path)
    async let report = importer.run(into: store)
    for await event in importer.events {
        if case .progress(let read, let total, _, _) = event, total > 0 {
            progress(min(1, Double(read) / Double(total)))
        }
    }
    return try await report
}

/// Exercise 2, solved.
public func importInOrder(_ paths: [String], into store: any HealthStore) -> Promise<[HealthExportReport]> {
    paths.reduce(Promise(value: [])) { earlier, path in
        earlier.then { reports in
            HealthExportImport(path: path).start(into: store).map { reports + [$0] }
        }
    }
}
