import ExampleSupport
import FlowKit
import Foundation
import HealthExport
import HealthFlow

// Lesson: Examples/ImportAndSummarize/LESSON.md — stream a big file into the store, with progress, in order.
// Each function below is yours to write: replace its body, then run
//     HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseImportAndSummarize
// A worked solution is in Examples/Solutions/ImportAndSummarizeSolutions.swift: try first, compare after.

/// Exercise 1 (★☆☆): import the export at `path` into `store`, calling `progress` with the fraction of the file
/// read (0 to 1, never going back, ending with exactly 1) while the import runs; return the import's report.
///
/// Hints:
/// - `HealthExportImport(path:)` makes the import; `run(into:)` is its async face, `events` its progress.
/// - The events end by themselves when the import ends; `.progress(bytesRead:totalBytes:…)` is the one to read.
/// - Start the import first (`async let`), then read its events while it runs.
public func importReportingProgress(
    _ path: String, into store: any HealthStore, progress: @escaping @Sendable (Double) -> Void
) async throws -> HealthExportReport {
    throw Unimplemented("ImportAndSummarize 1")
}

/// Exercise 2 (★★☆): import several exports into `store` one after another — never two at once — and fulfill
/// with their reports in the same order. The first failure rejects the promise: what earlier exports stored
/// stays, and no later import starts.
///
/// Hints:
/// - `HealthExportImport(path:).start(into:)` is the promise face; it starts the import when called.
/// - So make each import inside a `then` of the one before: `reduce` over the paths, starting from
///   `Promise(value: [])`.
public func importInOrder(_ paths: [String], into store: any HealthStore) -> Promise<[HealthExportReport]> {
    Promise(error: Unimplemented("ImportAndSummarize 2"))
}
