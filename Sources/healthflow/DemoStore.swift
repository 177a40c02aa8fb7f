import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

/// The demo's store, opened — and, while it has no sample, given the generated year — by one rule for `demo`
/// and `sync`.
///
/// A durable store opens as ``StoreOpening`` says: each warning goes to `log`; damage stops the command unless
/// the location asks for a repair. A store without any sample (new, in memory, or left without the year by an
/// interrupted seeding) gets the year (``DemoSeed``). With a ``DemoTrace``, opening and each seeding phase are
/// `[setup]` steps of the trace; without one they run silently.
struct DemoStore: Sendable {
    let store: any HealthChangeHistory
    /// The durable store, or `nil` in memory.
    private let durable: FileHealthStore?

    /// Why the store is not ready.
    enum Failure: Error {
        /// Opening the durable store in `directory` failed (nothing was changed).
        case cannotOpen(FileStoreError, directory: FileSystemPath)
        /// The year could not be stored (nothing of it was kept).
        case notSeeded(any Error)

        /// What the command prints: the error, then what to try.
        var lines: [String] {
            switch self {
            case .cannotOpen(let error, let directory):
                ["error: cannot open the store in \(directory): \(error)"]
                    + StoreOpening.hint(for: error, directory: directory)
            case .notSeeded(let error):
                ["the year was not stored (nothing of it was kept; \(error)); the next run stores it again"]
            }
        }
    }

    /// Opens the store at `location`, seeding it when it has no sample.
    /// - Throws: ``Failure``; the store is then closed.
    static func open(_ location: DataLocation, trace: DemoTrace?, log: (String) -> Void) async throws(Failure)
        -> DemoStore
    {
        let opened: DemoStore
        switch location {
        case .inMemory:
            opened = DemoStore(store: InMemoryHealthStore(configuration: ExampleContext.app), durable: nil)
        case .directory(let directory, let repair):
            let clock = ContinuousClock()
            let started = clock.now
            let file: FileHealthStore
            do throws(FileStoreError) {
                file = try StoreOpening.open(directory, repair: repair)
            } catch {
                throw .cannotOpen(error, directory: directory)
            }
            let openingTime = clock.now - started
            for warning in StoreOpening.warnings(file.recovery) { log(warning) }
            opened = DemoStore(store: file, durable: file)
            trace?.record(
                "setup", "open the durable store (journal + snapshots)", elapsed: openingTime,
                Self.describeOpening(file))
        }
        guard DemoSeed.needsSeeding(opened.store) else { return opened }
        do {
            try await opened.seed(trace: trace)
        } catch {
            // A store that holds the year (only its snapshot failed) is still the demo's store.
            guard DemoSeed.needsSeeding(opened.store) else { return opened }
            opened.close()
            throw .notSeeded(error)
        }
        return opened
    }

    func close() {
        durable?.close()
    }

    /// "a new store", or what reopening read.
    private static func describeOpening(_ file: FileHealthStore) -> String {
        if DemoSeed.needsSeeding(file) { return "a new store" }
        let recovery = file.recovery
        var found =
            "reopened: snapshot \(recovery.snapshotGeneration.map(String.init) ?? "none"), "
            + "\(recovery.replayedRecords) journal records replayed"
        if let torn = recovery.tornTail { found += ", a torn last record dropped (\(torn.length) bytes)" }
        return found
    }

    /// Generates the year and stores it as one change.
    private func seed(trace: DemoTrace?) async throws {
        let year = LockedState<GeneratedHealthData?>(nil)
        try await Self.step(trace, "generate a year of data for one person (seed \(HealthDemo.seed), hourly steps)") {
            let generated = try DemoSeed.year()
            year.withLock { $0 = generated }
            let types = generated.quantitySamples.count + generated.categorySamples.count
            return "\(grouped(generated.sampleCount)) samples of \(types) types"
        }
        try await Self.step(trace, "ingest it into the store, as if recorded by the phone and the watch") {
            guard let generated = year.withLock({ $0 }) else { throw DemoFailure.noData }
            if let durable {
                try DemoSeed.seed(durable, with: generated)
            } else if let memory = store as? InMemoryHealthStore {
                try memory.ingest(generated)
            }
            return "\(grouped(generated.sampleCount)) samples stored"
        }
    }

    /// Runs `body` as a `[setup]` step of `trace` (or silently without one), throwing what it threw.
    private static func step(
        _ trace: DemoTrace?, _ description: String, _ body: @Sendable () async throws -> String
    ) async throws {
        guard let trace else {
            _ = try await body()
            return
        }
        let failure = LockedState<(any Error)?>(nil)
        await trace.step("setup", description) {
            do {
                return try await body()
            } catch {
                failure.withLock { $0 = error }
                throw error
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
