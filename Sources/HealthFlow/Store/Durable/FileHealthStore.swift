import FlowKit
import Foundation

/// A ``HealthStore`` kept in a directory: the rules and queries of ``InMemoryHealthStore`` — the same storage
/// engine, with a journal for its persistence — with every change written to an append-only journal and flushed
/// to disk before it is applied and acknowledged, so the store survives restarts and crashes without losing an
/// acknowledged write.
///
/// ```swift
/// let store = try FileHealthStore(directory: directory, configuration: app)
/// try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
/// try await store.save(.quantity(walk))  // returns once the record is on disk
/// store.close()
///
/// let reopened = try FileHealthStore(directory: directory, configuration: app)
/// let walks = try await reopened.samples(of: .stepCount)  // the walk, with the same anchors
/// ```
///
/// ## Guarantees
/// - **Acknowledged means durable.** A completion reports success (and `ingest` returns) only after the
///   change's journal record is written and `fsync`ed. A batch is one change (records of at most about 1 MiB,
///   written together): after a crash it is there whole or not at all. A change that failed with an I/O error
///   is not applied in this process; after a crash it may or may not reappear (its record may have reached
///   the disk before the failure was seen).
/// - **Same state after reopening.** The journal records every change (saves, ingests, deletions and
///   authorization answers) and replaying them goes through the same code that applied them, so samples,
///   tombstones, anchors, authorization and query results are identical. Running queries, observers and
///   the ``characteristics`` are not stored: they belong to the process.
/// - **Damage is detected, never mis-read, never cut off silently.** Each record carries a checksum of its
///   header and of its payload. Only what an interrupted append leaves — a last record cut short, or zeros
///   where its blocks never reached the disk (at most 8 MiB) — counts as a torn last record: it is dropped,
///   the journal truncated to the last complete record, and the drop reported in ``recovery``. Any other damage
///   (a flipped byte even in the last record, garbage or a longer run of zeros after it, anything in a
///   snapshot) throws ``FileStoreError/corruptFile(name:offset:problem:)`` and leaves every byte in place —
///   unless opened with ``FileStoreRecoveryMode/repair``, which keeps everything readable, reports each loss in
///   ``FileStoreRecovery/repairs`` and moves the damaged files into `damaged/`.
/// - **One identity.** ``storeID`` is drawn when the directory's first file is written and kept in every file;
///   ``HealthChangeHistory`` lets sync state check it still describes this store.
/// - **One store per directory.** The store holds an exclusive `flock` on `LOCK` until ``close()``; a second
///   store — in this process or another — fails with ``FileStoreError/alreadyOpen(path:)``. The directory is
///   created 0700 and every file 0600.
///
/// ## Snapshots
/// When the journal passes ``FileStoreOptions/journalSizeLimit`` (or on ``snapshot()``), the store starts a
/// new journal generation under its lock, copies its state (copy-on-write, O(types)), and — while other
/// threads keep reading and writing — writes the snapshot to a temporary file, flushes it, renames it into
/// place and flushes the directory; only then are the files it covers removed. A crash at any step reopens
/// to the same state (see ``recovery`` for what was cleaned up).
///
/// ## On-disk format
/// Journals and snapshots are framed, checksummed records; every file's header names the store's identity and the
/// change sequence it starts from. The whole format and the recovery rules are in <doc:DurableStoreFormat>.
///
/// ## Threads
/// As ``InMemoryHealthStore``: one lock, callbacks in order on ``callbackExecutor``, never under the lock.
/// The journal write and flush happen under the lock, so changes are serialized behind the disk's flush
/// latency; reads wait for an in-flight flush too.
///
/// The store never logs; errors name files, offsets, types and UUIDs, never health values.
///
/// - Note: Sendable (restated, as Swift asks of a subclass): every stored property is an immutable `let` of a
///   Sendable type; see ``LocalHealthStore``.
public final class FileHealthStore: LocalHealthStore, @unchecked Sendable {
    /// The store's directory as a URL: the one it was opened with, or, for a store opened with
    /// ``init(directoryPath:configuration:policy:characteristics:callbackExecutor:isHealthDataAvailable:options:)``,
    /// ``directoryPath`` as a URL — which, for a path that is not UTF-8, shows U+FFFD in place of the bytes a URL
    /// cannot hold (use ``directoryPath`` to name the folder again).
    public let directory: URL
    /// The store's directory, as the bytes every file call is given: a path opened with
    /// ``init(directoryPath:configuration:policy:characteristics:callbackExecutor:isHealthDataAvailable:options:)``
    /// unchanged, or a URL's standardized file-system representation.
    public let directoryPath: FileSystemPath
    /// What opening found: the snapshot loaded, the records replayed, a torn last record dropped.
    public let recovery: FileStoreRecovery
    /// The options the store was opened with.
    public let options: FileStoreOptions

    let engine: StoreEngine<JournalPersistence>

    /// Opens the store in `directory` (creating it, mode 0700, if needed — its parent must exist), loading
    /// the latest snapshot and replaying the journal.
    ///
    /// - Parameters:
    ///   - directory: A file URL; one store per directory, one app per store.
    ///   - configuration: The app; its bundle identifier must match the one the directory was created for.
    ///   - policy: Who answers the permission sheet. Answers are stored: a type answered before is not
    ///     asked again after reopening.
    ///   - characteristics: The person's characteristics (not stored).
    ///   - callbackExecutor: Where handlers run; by default a serial queue owned by the store.
    ///   - isHealthDataAvailable: `false` to model a device without health data.
    ///   - options: Snapshot tuning.
    /// - Throws: ``FileStoreError``: `alreadyOpen`, `corruptFile`, `missingJournal`, `differentApp`,
    ///   `otherFormat` (the directory holds the disk-backed store), `notADirectory` or `io`.
    /// - Complexity: O(n) in the size of the snapshot and journal. Measured in a release build on a shared
    ///   two-core Linux machine: a million quantity samples load in about 1.5 s from a snapshot (51 MB) and
    ///   about 4 s from a journal alone (49 MB).
    public convenience init(
        directory: URL, configuration: HealthAppConfiguration, policy: AuthorizationPolicy = .grantAll,
        characteristics: HealthCharacteristics = HealthCharacteristics(), callbackExecutor: FlowExecutor? = nil,
        isHealthDataAvailable: Bool = true, options: FileStoreOptions = FileStoreOptions()
    ) throws(FileStoreError) {
        try self.init(
            directory: directory, configuration: configuration, policy: policy, characteristics: characteristics,
            callbackExecutor: callbackExecutor, isHealthDataAvailable: isHealthDataAvailable, options: options,
            fileSystem: PosixFileSystem())
    }

    /// Opens the store in the directory whose path is `directoryPath`, byte for byte (creating it, mode 0700,
    /// if needed — its parent must exist): the way to open a store in a folder whose name is not UTF-8, which a
    /// URL cannot name. Everything else is as
    /// ``init(directory:configuration:policy:characteristics:callbackExecutor:isHealthDataAvailable:options:)``.
    ///
    /// - Parameters:
    ///   - directoryPath: The directory; a relative path is taken from the current directory at each file call.
    ///   - configuration: The app; its bundle identifier must match the one the directory was created for.
    ///   - policy: Who answers the permission sheet (answers are stored).
    ///   - characteristics: The person's characteristics (not stored).
    ///   - callbackExecutor: Where handlers run; by default a serial queue owned by the store.
    ///   - isHealthDataAvailable: `false` to model a device without health data.
    ///   - options: Snapshot tuning and the recovery mode.
    /// - Throws: ``FileStoreError``: `alreadyOpen`, `corruptFile`, `missingJournal`, `differentApp`,
    ///   `otherFormat` (the directory holds the disk-backed store), `notADirectory` or `io` (whose paths show the
    ///   directory's display form).
    /// - Complexity: O(n) in the size of the snapshot and journal.
    public convenience init(
        directoryPath: FileSystemPath, configuration: HealthAppConfiguration, policy: AuthorizationPolicy = .grantAll,
        characteristics: HealthCharacteristics = HealthCharacteristics(), callbackExecutor: FlowExecutor? = nil,
        isHealthDataAvailable: Bool = true, options: FileStoreOptions = FileStoreOptions()
    ) throws(FileStoreError) {
        try self.init(
            directoryPath: directoryPath, directory: nil, configuration: configuration, policy: policy,
            characteristics: characteristics, callbackExecutor: callbackExecutor,
            isHealthDataAvailable: isHealthDataAvailable, options: options, fileSystem: PosixFileSystem())
    }

    /// Opens the store in `directory` over `fileSystem` (tests pass a failing one).
    convenience init(
        directory: URL, configuration: HealthAppConfiguration, policy: AuthorizationPolicy,
        characteristics: HealthCharacteristics, callbackExecutor: FlowExecutor?, isHealthDataAvailable: Bool,
        options: FileStoreOptions, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) {
        try self.init(
            directoryPath: FileSystemPath(directory.standardizedFileURL), directory: directory,
            configuration: configuration, policy: policy, characteristics: characteristics,
            callbackExecutor: callbackExecutor, isHealthDataAvailable: isHealthDataAvailable, options: options,
            fileSystem: fileSystem)
    }

    /// Opens the store at `directoryPath` over `fileSystem`; `directory` is the URL it was named by, if any.
    init(
        directoryPath: FileSystemPath, directory: URL?, configuration: HealthAppConfiguration,
        policy: AuthorizationPolicy, characteristics: HealthCharacteristics, callbackExecutor: FlowExecutor?,
        isHealthDataAvailable: Bool, options: FileStoreOptions, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) {
        let opened = try StoreOpener(
            fileSystem: fileSystem, directory: directoryPath, appBundleIdentifier: configuration.bundleIdentifier,
            sizeLimit: options.journalSizeLimit, mode: options.recovery
        ).open()
        self.directory = directory ?? directoryPath.urlOrDisplayForm
        self.directoryPath = directoryPath
        self.recovery = opened.recovery
        self.options = options
        self.engine = StoreEngine(
            configuration: configuration, policy: policy, characteristics: characteristics,
            callbackExecutor: callbackExecutor, isHealthDataAvailable: isHealthDataAvailable,
            activitySummaryGoals: .standard, state: opened.state,
            persistence: JournalPersistence(journal: opened.journal, fileSystem: fileSystem, directory: directoryPath),
            queueName: "FileHealthStore")
        super.init(core: engine)
        if opened.needsIdentity {
            // Files from before stores had an identity: a snapshot writes the new one into every live file.
            do throws(FileStoreError) {
                try snapshot()
            } catch {
                close()
                throw error
            }
        }
    }

    deinit {
        close()
    }

    /// What opening `directory` with ``FileStoreRecoveryMode/repair`` would keep and lose, without writing,
    /// cutting, moving or removing anything — what to show someone before they choose to repair
    /// (``FileStoreRecoveryMode`` shows the flow).
    ///
    /// - Parameters:
    ///   - directory: The store's directory (it must exist).
    ///   - configuration: The app the store belongs to.
    /// - Returns: The assessment (no repairs for an undamaged store).
    /// - Throws: ``FileStoreError``: `alreadyOpen`, `differentApp`, `otherFormat`, `io`.
    public static func assessDamage(
        directory: URL, configuration: HealthAppConfiguration
    ) throws(FileStoreError) -> FileStoreAssessment {
        try assessDamage(directoryPath: FileSystemPath(directory.standardizedFileURL), configuration: configuration)
    }

    /// What opening the directory at `directoryPath` with ``FileStoreRecoveryMode/repair`` would keep and lose,
    /// as ``assessDamage(directory:configuration:)``, for a directory named by its bytes (one a URL cannot name).
    ///
    /// - Parameters:
    ///   - directoryPath: The store's directory (it must exist).
    ///   - configuration: The app the store belongs to.
    /// - Returns: The assessment (no repairs for an undamaged store).
    /// - Throws: ``FileStoreError``: `alreadyOpen`, `differentApp`, `otherFormat`, `io`.
    public static func assessDamage(
        directoryPath: FileSystemPath, configuration: HealthAppConfiguration
    ) throws(FileStoreError) -> FileStoreAssessment {
        try StoreOpener(
            fileSystem: PosixFileSystem(), directory: directoryPath,
            appBundleIdentifier: configuration.bundleIdentifier, sizeLimit: 1, mode: .repair
        ).assess()
    }

    // MARK: Snapshots and closing

    /// Takes a snapshot now and starts a new journal generation, then removes the files it covers. Other
    /// threads keep reading and writing while the snapshot is written. Reopening then reads that snapshot and the
    /// changes made after it.
    ///
    /// - Throws: ``FileStoreError``; the store is unchanged and still complete on disk (its journals stay).
    /// - Complexity: O(n) in the stored samples and tombstones.
    public func snapshot() throws(FileStoreError) {
        try engine.persistence.snapshot(of: engine)
    }

    /// Whether the store takes a snapshot by itself once its journal's changes reach
    /// ``FileStoreOptions/journalSizeLimit`` (or the last snapshot's size); `true` when opened.
    ///
    /// A bulk writer that ends with one ``snapshot()`` — `healthflow import` does — turns it off meanwhile: each
    /// automatic snapshot writes the whole store again, so halfway through a million-sample import one costs as
    /// much as the final one. Turned off, the journal keeps every change until the next snapshot, and a store
    /// closed or killed meanwhile replays it on the next open: nothing is lost either way, only the next open
    /// takes longer. Turned back on, a snapshot that is due is taken after the next change.
    public var takesAutomaticSnapshots: Bool {
        get { engine.persistence.takesAutomaticSnapshots }
        set { engine.persistence.takesAutomaticSnapshots = newValue }
    }

    /// Closes the journal and releases the directory's lock, so another store may open it. Later saves,
    /// deletions and authorization requests fail with ``FileStoreError/closed``; queries still answer from
    /// memory. Closing twice does nothing; deinitialization closes.
    public func close() {
        engine.persistence.close()
    }

    // MARK: Ingesting

    /// Adds samples from another app or device, as ``InMemoryHealthStore/ingest(_:)``; returns once they are
    /// on disk.
    ///
    /// - Parameter samples: Samples with any source.
    /// - Throws: A ``HealthStoreError`` when a rule refuses them, a ``FileStoreError`` when they could not be
    ///   made durable; nothing is added then.
    public func ingest(_ samples: [HealthSample]) throws {
        do throws(StoreEngine<JournalPersistence>.IngestFailure) {
            try engine.ingest(samples)
        } catch {
            throw error.underlying
        }
    }

    /// Adds ECGs recorded by a device with their voltage measurements, as the in-memory store's
    /// `ingest(_:)` of recordings does; returns once they are on disk (one journal record per ECG, flushed once
    /// for the batch). Snapshots and reopening keep the measurements.
    ///
    /// - Parameter recordings: ECGs with any source and their measurements.
    /// - Throws: A ``HealthStoreError`` when a rule refuses them, a ``FileStoreError`` when they could not be
    ///   made durable; nothing is added then.
    public func ingest(_ recordings: [ElectrocardiogramRecording]) throws {
        do throws(StoreEngine<JournalPersistence>.IngestFailure) {
            try engine.ingest(recordings)
        } catch {
            throw error.underlying
        }
    }

    /// Adds workouts with their routes, as the in-memory store's `ingest(_:)` of workout recordings does;
    /// returns once they are on disk (one journal record per workout, flushed once for the batch). Snapshots and
    /// reopening keep the routes.
    ///
    /// - Parameter recordings: Workouts with any source and their routes.
    /// - Throws: A ``HealthStoreError`` when a rule refuses them, a ``FileStoreError`` when they could not be
    ///   made durable; nothing is added then.
    public func ingest(_ recordings: [WorkoutRecording]) throws {
        do throws(StoreEngine<JournalPersistence>.IngestFailure) {
            try engine.ingest(recordings)
        } catch {
            throw error.underlying
        }
    }

    /// Adds heartbeat series with their beats, as the in-memory store's `ingest(_:)` of heartbeat series
    /// recordings does; returns once they are on disk (one journal record per series, flushed once for the
    /// batch). Snapshots and reopening keep the beats.
    ///
    /// - Parameter recordings: Heartbeat series with any source and their beats.
    /// - Throws: A ``HealthStoreError`` when a rule refuses them, a ``FileStoreError`` when they could not be
    ///   made durable; nothing is added then.
    public func ingest(_ recordings: [HeartbeatSeriesRecording]) throws {
        do throws(StoreEngine<JournalPersistence>.IngestFailure) {
            try engine.ingest(recordings)
        } catch {
            throw error.underlying
        }
    }

    /// Adds routes to a stored workout, after the routes it holds — as `HKWorkoutRouteBuilder` adds a route to a
    /// saved workout. The change announces the workout again: anchored queries from an earlier anchor (and so a
    /// sync) read it once more, now with these routes, and its observers are called; returns once they are on disk (one journal record). Snapshots and reopening keep them.
    ///
    /// - Parameters:
    ///   - routes: The routes, in the order a ``HealthWorkoutRouteQuery`` reads them back after those held.
    ///   - workout: The stored workout (matched by UUID; any source).
    /// - Throws: ``HealthStoreError/objectNotFound(_:)`` when no such workout is stored,
    ///   ``HealthStoreError/healthDataUnavailable``, or a ``FileStoreError`` when the routes could not be made
    ///   durable; nothing is added then. No routes add nothing.
    public func addRoutes(_ routes: [HealthWorkoutRoute], to workout: HealthWorkout) throws {
        guard !routes.isEmpty else { return }
        do throws(StoreEngine<JournalPersistence>.IngestFailure) {
            try engine.add(.routes(routes), toSampleWith: workout.uuid)
        } catch {
            throw error.underlying
        }
    }

    /// Adds to a stored workout those of `routes` it does not hold yet (equal by value), after the routes it holds,
    /// as ``addRoutes(_:to:)`` adds them: what the store keeps decides, whatever the app may read, so adding the
    /// same routes again (a re-import) adds nothing and writes nothing.
    ///
    /// - Parameters:
    ///   - routes: The routes, in the order a ``HealthWorkoutRouteQuery`` reads the added ones back.
    ///   - workout: The stored workout (matched by UUID; any source).
    /// - Returns: The routes added, in the order given, once they are on disk.
    /// - Throws: ``HealthStoreError/objectNotFound(_:)`` when no such workout is stored,
    ///   ``HealthStoreError/healthDataUnavailable``, or a ``FileStoreError`` when the routes could not be made
    ///   durable; nothing is added then. No routes add nothing.
    @discardableResult
    public func addMissingRoutes(
        _ routes: [HealthWorkoutRoute], to workout: HealthWorkout
    ) throws -> [HealthWorkoutRoute] {
        guard !routes.isEmpty else { return [] }
        do throws(StoreEngine<JournalPersistence>.IngestFailure) {
            return try engine.addMissing(routes, toSampleWith: workout.uuid)
        } catch {
            throw error.underlying
        }
    }
}
