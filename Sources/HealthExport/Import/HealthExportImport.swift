import FlowKit
import Foundation
import HealthFlow

/// How an import runs.
public struct HealthExportOptions: Sendable {
    /// Samples per write: each batch is one all-or-nothing store change (for the durable store, one journal
    /// record set flushed once), so a cancelled or failed import leaves whole batches.
    public var batchSize: Int
    /// A file to list every skipped record in (tab-separated: line, reason, element, detail); `nil` for none.
    public var skipReportPath: String?

    /// Options; a batch size below 1 counts as 1.
    public init(batchSize: Int = 4096, skipReportPath: String? = nil) {
        self.batchSize = max(1, batchSize)
        self.skipReportPath = skipReportPath
    }
}

/// What an import reports while it runs.
public enum HealthExportEvent: Sendable {
    /// Bytes of the input read of its size, and the counts so far (sent every few thousand elements).
    case progress(bytesRead: Int64, totalBytes: Int64, imported: Int, skipped: Int)
    /// The import ended with this report.
    case finished(HealthExportReport)
    /// The import stopped: cancelled, or a typed ``HealthExportError``.
    case failed(String)
}

/// One import of a Health app export into a store, with the three faces every workflow has — a completion
/// handler, a FlowKit `Promise`, async/await — a Foundation `Progress` (bytes of the input file) and an
/// `AsyncSequence` of ``HealthExportEvent``s.
///
/// The input is `export.zip` (read in place: stored and deflated entries, ZIP64), an unpacked
/// `apple_health_export/` folder, or a bare `export.xml`. The file is streamed: memory holds one buffer, one
/// element and up to five batches (one being read on the import's thread while four are prepared for the store on
/// a second and written on a third, in the order read), plus the activity summaries the report returns and the
/// UUIDs of correlation members (16 bytes each); workouts are stored as samples like records. On glibc, a
/// process importing a large export into the disk-backed store keeps its peak lower with the allocator's mmap
/// threshold fixed (`MALLOC_MMAP_THRESHOLD_=262144`, as `healthflow import` sets it): by default glibc moves the
/// store's large transient buffers into its heap, whose freed pages stay resident — 139–156 MB peak against
/// 125–127 MB on a 4.85 GB export. Top-level blood-pressure and nutrition records wait in a temporary
/// file until the correlations that may hold them are read (the export lists members twice: they are stored
/// once, inside their correlation). After export.xml, the ECG CSVs beside it (`electrocardiograms/*.csv`) are
/// read one at a time and stored as ECGs with their voltage measurements (``ElectrocardiogramIngesting``); a CSV
/// that cannot be read is skipped with its file name and line. A workout's route files (`workout-routes/*.gpx`)
/// are read as the workout is met and stored with it (``WorkoutRouteIngesting``); a missing or malformed one is
/// skipped with its name and line, and the workout is kept. A workout of a newer export, whose totals are written
/// only as statistics, takes its total energy and distance from its active-energy and (single) distance
/// statistics, as HealthKit's do.
///
/// Every record gets a UUID derived from its content (type, source, dates, unit, value, metadata): importing
/// the same export again adds nothing, a newer export adds only what is new, and a cancelled import resumes by
/// running it again.
///
/// Into a `FileHealthStore`, `healthflow import` turns the store's automatic snapshots off for the import
/// (`takesAutomaticSnapshots`) and takes one `snapshot()` at its end: each automatic snapshot would write the whole
/// store again (16 % of a million-record import's CPU, Benchmarks/README.md).
///
/// - Note: `Sendable`: its mutable state (started, cancelled) is behind locks; `Progress` is thread-safe.
public final class HealthExportImport: Sendable {
    /// The export's path.
    public let path: String
    /// How the import runs.
    public let options: HealthExportOptions
    /// Bytes of the input file read, of its size; cancelling it cancels the import.
    public let progress: Progress
    /// The import's events, ending after `finished` or `failed`.
    public let events: AsyncStream<HealthExportEvent>
    private let continuation: AsyncStream<HealthExportEvent>.Continuation
    private let cancelled = Flag()
    private let started = Flag()
    private let reportAtStop = LockedState<HealthExportReport?>(nil)

    /// The counts as they stood when the import stopped with an error or was cancelled — what was written, and
    /// ``HealthExportReport/heldMembersNotWritten`` — set before the completion runs; `nil` before then and after
    /// an import that succeeded.
    public var stoppedReport: HealthExportReport? { reportAtStop.withLock { $0 } }

    /// An import of the export at `path`, not started yet.
    public init(path: String, options: HealthExportOptions = HealthExportOptions()) {
        self.path = path
        self.options = options
        progress = Progress(totalUnitCount: 0)
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        progress.cancellationHandler = { [cancelled] in cancelled.set() }
    }

    /// Stops the import at the next batch boundary: what was written stays (whole batches), and the run
    /// ends with `CancellationError`.
    public func cancel() {
        cancelled.set()
    }

    /// Runs the import on a thread of its own and calls `completion` once with the report or the error
    /// (``HealthExportError``, a store error, or `CancellationError`). An import runs once; a second start
    /// fails with ``HealthExportError/alreadyStarted(path:)``.
    public func start(
        into store: any HealthStore, completion: @escaping @Sendable (Result<HealthExportReport, any Error>) -> Void
    ) {
        guard started.set() else {
            completion(.failure(HealthExportError.alreadyStarted(path: path)))
            return
        }
        let thread = Thread { [self] in
            var engine = ImportEngine(
                path: path, options: options, store: store,
                isCancelled: { [cancelled] in cancelled.isSet },
                onProgress: { [progress, continuation] bytes, total, report in
                    progress.totalUnitCount = total
                    progress.completedUnitCount = bytes
                    continuation.yield(
                        .progress(
                            bytesRead: bytes, totalBytes: total, imported: report.importedCount,
                            skipped: report.skippedCount))
                })
            let result = Result { try engine.run() }
            if case .failure = result { reportAtStop.withLock { $0 = engine.report } }
            switch result {
            case .success(let report): continuation.yield(.finished(report))
            case .failure(let error): continuation.yield(.failed(String(describing: error)))
            }
            continuation.finish()
            completion(result)
        }
        thread.name = "HealthExport import"
        thread.start()
    }

    /// The promise face: fulfilled with the report; cancelling the promise cancels the import.
    public func start(into store: any HealthStore) -> Promise<HealthExportReport> {
        Promise { resolver in
            resolver.onCancel { [self] in cancel() }
            start(into: store, completion: resolver.resolve)
        }
    }

    /// The async face; cancelling the task cancels the import.
    public func run(into store: any HealthStore) async throws -> HealthExportReport {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                start(into: store) { continuation.resume(with: $0) }
            }
        } onCancel: {
            cancel()
        }
    }
}

/// A flag set once, read from any thread.
private final class Flag: Sendable {
    private let state = LockedState(false)

    /// Sets the flag; `true` if this call set it.
    @discardableResult
    func set() -> Bool {
        state.withLock { value in
            defer { value = true }
            return !value
        }
    }

    var isSet: Bool { state.withLock { $0 } }
}
