import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

/// The demo's store, opened — and, while it has no sample, given the generated year — by one rule for `demo`
/// and `sync`.
///
/// A durable store opens as ``StoreOpening`` says: each warning goes to `log`; damage stops the command unless
/// the location asks for a repair the store can make. A store without any sample (new, in memory, or left without
/// the year by an interrupted seeding) gets the year (``DemoSeed``). With a ``DemoTrace``, opening and each seeding phase are
/// `[setup]` steps of the trace; without one they run silently.
struct DemoStore: Sendable {
    let store: any HealthChangeHistory
    /// The durable store, or `nil` in memory.
    private let durable: OpenedStore?

    /// Why the store is not ready.
    enum Failure: Error {
        /// Opening the durable store in `directory` failed (nothing was changed).
        case cannotOpen(FileStoreError, directory: FileSystemPath)
        /// The year could not be stored (nothing of it was kept).
        case notSeeded(any Error)
        /// The store met damage in `directory` after opening (``OpenedStore/failure``).
        case damaged(FileStoreError, directory: FileSystemPath)

        /// What the command prints: the error, then what to try.
        var lines: [String] {
            switch self {
            case .cannotOpen(let error, let directory):
                ["error: cannot open the store in \(directory): \(error)"]
                    + StoreOpening.hint(for: error, directory: directory)
            case .notSeeded(let error):
                ["the year was not stored (nothing of it was kept; \(error)); the next run stores it again"]
            case .damaged(let error, let directory):
                [
                    "error: the store in \(directory) met damage while answering (\(error)): an answer above may "
                        + "miss samples, and nothing after it was changed"
                ] + StoreOpening.hint(for: error, directory: directory)
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
            let durable: OpenedStore
            do throws(FileStoreError) {
                durable = try StoreOpening.open(directory, repair: repair)
            } catch {
                throw .cannotOpen(error, directory: directory)
            }
            let openingTime = clock.now - started
            for warning in durable.warnings { log(warning) }
            opened = DemoStore(store: durable.store, durable: durable)
            trace?.record(
                "setup", "open the durable store (\(durable.format))", elapsed: openingTime,
                durable.openingDescription)
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

    /// Throws when the store met damage after opening (``OpenedStore/failure``), so a command that read through
    /// it does not end as if every answer were whole.
    func checkUndamaged(in location: DataLocation) throws(Failure) {
        guard case .directory(let directory, _) = location, let failure = durable?.failure else { return }
        throw .damaged(Self.cause(of: failure), directory: directory)
    }

    /// The damage beneath the refusals that followed it.
    private static func cause(of error: FileStoreError) -> FileStoreError {
        if case .unusable(let cause) = error { return Self.cause(of: cause) }
        return error
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
