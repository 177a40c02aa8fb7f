import FlowKit
import Foundation
import HealthFlow
import HealthSync
import Testing

/// Sync state never outlives the store it describes: a recreated store, a store restored from an older copy,
/// an anchor edited past the end and a state folder shared by two stores all make the next run send everything
/// again — never "nothing to send" — and the report says why. The receiver (the outbox) ends with every sample.
struct SyncStoreHistoryTests {
    private static func engine(
        _ bench: SyncEngineBench, store: any HealthStore, transport: (any UploadTransport)? = nil,
        batchSize: Int = 1_000
    ) throws -> SyncEngine {
        try SyncEngine(
            store: store, types: SyncEngineBench.types, anchorStore: bench.anchors,
            transport: transport ?? bench.outbox, deviceID: "device-1", batchSize: batchSize,
            tempFolder: bench.tempURL, inMemoryLimit: 0, now: { SyncFixtures.nine })
    }

    private static func memoryStore() async throws -> InMemoryHealthStore {
        let store = InMemoryHealthStore(configuration: SyncEngineBench.app, policy: .grantAll)
        try await store.requestAuthorization(toShare: Set(SyncEngineBench.types), read: Set(SyncEngineBench.types))
        return store
    }

    private static func fileStore(_ directory: URL) async throws -> FileHealthStore {
        let store = try FileHealthStore(directory: directory, configuration: SyncEngineBench.app, policy: .grantAll)
        try await store.requestAuthorization(toShare: Set(SyncEngineBench.types), read: Set(SyncEngineBench.types))
        return store
    }

    @Test func aRecreatedStoreUnderTheOldStateIsSentInFull() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        #expect(try await bench.engine().sync().samples == ["heartRate": 5])

        let recreated = try await Self.memoryStore()
        let fresh = try SyncEngineBench.heartRates(3, first: 200)
        try recreated.ingest(fresh)
        let report = try await Self.engine(bench, store: recreated).sync()
        #expect(
            report.restart
                == .historyMismatch(.differentStore(recorded: bench.store.storeID, current: recreated.storeID)))
        #expect(report.samples == ["heartRate": 3], "the new store's samples are sent, not skipped")
        #expect(Set(try bench.deliveredUUIDs().samples).isSuperset(of: fresh.map(\.uuid)))
        #expect(try await Self.engine(bench, store: recreated).sync() == SyncReport(), "then it is up to date")
    }

    @Test func anAnchorEditedPastTheEndIsNotTrusted() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let first = try SyncEngineBench.heartRates(5)
        try bench.store.ingest(first)
        _ = try await bench.engine().sync()
        var state = try bench.anchors.load()
        let edited = try JSONDecoder().decode(HealthQueryAnchor.self, from: Data("87063".utf8))
        state.anchors["heartRate"] = edited
        try bench.anchors.save(state)
        let late = try SyncEngineBench.heartRates(2, first: 300)
        try bench.store.ingest(late)

        let report = try await bench.engine().sync()
        #expect(report.restart == .anchorBeyondEnd(type: "heartRate", anchor: 87_063, end: 7))
        #expect(report.samples == ["heartRate": 7])
        #expect(Set(try bench.deliveredUUIDs().samples) == Set((first + late).map(\.uuid)))
    }

    /// A durable store of either kind, opened in a directory.
    struct DurableStore {
        let store: any HealthStore
        let ingest: ([HealthSample]) throws -> Void
        let close: () -> Void

        enum Kind: CaseIterable {
            /// ``FileHealthStore``.
            case file
            /// ``BackedHealthStore`` over ``SegmentedHealthStoreBackend``.
            case diskBacked
        }

        static func open(_ kind: Kind, _ directory: URL) async throws -> DurableStore {
            switch kind {
            case .file:
                let store = try await SyncStoreHistoryTests.fileStore(directory)
                return DurableStore(store: store, ingest: { try store.ingest($0) }, close: { store.close() })
            case .diskBacked:
                let backend = try SegmentedHealthStoreBackend(directory: FileSystemPath(directory.path))
                let store = BackedHealthStore(backend: backend, configuration: SyncEngineBench.app, policy: .grantAll)
                try await store.requestAuthorization(
                    toShare: Set(SyncEngineBench.types), read: Set(SyncEngineBench.types))
                return DurableStore(store: store, ingest: { try store.ingest($0) }, close: { backend.close() })
            }
        }
    }

    @Test(arguments: DurableStore.Kind.allCases)
    func aStoreRestoredFromAnOlderCopyIsSentAgain(_ kind: DurableStore.Kind) async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let directory = bench.folder.url.appendingPathComponent("store")
        let copy = bench.folder.url.appendingPathComponent("copy")
        var store = try await DurableStore.open(kind, directory)
        let early = try SyncEngineBench.heartRates(3)
        try store.ingest(early)
        store.close()
        try FileManager.default.copyItem(at: directory, to: copy)
        store = try await DurableStore.open(kind, directory)
        try store.ingest(try SyncEngineBench.heartRates(4, first: 100))
        #expect(try await Self.engine(bench, store: store.store).sync().totalSamples == 7)
        store.close()

        try FileManager.default.removeItem(at: directory)
        try FileManager.default.moveItem(at: copy, to: directory)
        let restored = try await DurableStore.open(kind, directory)
        defer { restored.close() }
        let after = try SyncEngineBench.heartRates(6, first: 500)
        try restored.ingest(after)  // past the recorded sequence: only the fingerprint tells the histories apart
        let report = try await Self.engine(bench, store: restored.store).sync()
        #expect(report.restart == .historyMismatch(.rewritten(sequence: 7)))
        #expect(report.samples == ["heartRate": 9])
        #expect(Set(try bench.deliveredUUIDs().samples).isSuperset(of: (early + after).map(\.uuid)))
    }

    @Test func aStateFolderSharedByTwoStoresSendsEachInFull() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let one = try await Self.memoryStore()
        let two = try await Self.memoryStore()
        let ones = try SyncEngineBench.heartRates(3)
        let twos = try SyncEngineBench.heartRates(4, first: 100)
        try one.ingest(ones)
        try two.ingest(twos)

        #expect(try await Self.engine(bench, store: one).sync().restart == nil)
        let second = try await Self.engine(bench, store: two).sync()
        #expect(second.restart == .historyMismatch(.differentStore(recorded: one.storeID, current: two.storeID)))
        #expect(second.totalSamples == 4)
        let third = try await Self.engine(bench, store: one).sync()
        #expect(third.restart == .historyMismatch(.differentStore(recorded: two.storeID, current: one.storeID)))
        #expect(third.totalSamples == 3)
        #expect(Set(try bench.deliveredUUIDs().samples) == Set((ones + twos).map(\.uuid)))
    }

    @Test func aStateWithoutACheckpointIsSentAgainOnceThenTrusted() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(4))
        _ = try await bench.engine().sync()
        var state = try bench.anchors.load()
        #expect(state.checkpoint == bench.store.historyCheckpoint())
        state.checkpoint = nil  // as a state file written before checkpoints were kept
        try bench.anchors.save(state)

        let again = try await bench.engine().sync()
        #expect(again.restart == .noCheckpoint)
        #expect(again.totalSamples == 4)
        #expect(try await bench.engine().sync() == SyncReport())
    }

    @Test func aRunStoppedAfterSomeBatchesKeepsItsCheckpoint() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let samples = try SyncEngineBench.heartRates(5)
        try bench.store.ingest(samples)
        let flaky = AcceptingThenFailingTransport(inner: bench.outbox, accepted: 1)
        await #expect(throws: AcceptingThenFailingTransport.Refused.self) {
            try await Self.engine(bench, store: bench.store, transport: flaky, batchSize: 2).sync()
        }
        #expect(try bench.anchors.load().checkpoint != nil)
        let rest = try await bench.engine(batchSize: 2).sync()
        #expect(rest.restart == nil, "a half-finished run is not mistaken for another store's state")
        #expect(Set(try bench.deliveredUUIDs().samples) == Set(samples.map(\.uuid)))
    }

    @Test func everyRestartReasonIsOneLineWithoutHealthValues() {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let reasons: [SyncRestart] = [
            .historyMismatch(.differentStore(recorded: id, current: id)),
            .historyMismatch(.beyondEnd(recorded: 9, end: 3)),
            .historyMismatch(.rewritten(sequence: 7)), .anchorBeyondEnd(type: "heartRate", anchor: 87_063, end: 7),
            .noCheckpoint,
        ]
        for reason in reasons {
            #expect(!reason.description.contains("\n"))
            #expect(!reason.description.isEmpty)
        }
        #expect(
            SyncRestart.anchorBeyondEnd(type: "heartRate", anchor: 87_063, end: 7).description
                == "the heartRate anchor (change 87063) lies past this store's last change (7)")
    }
}

/// Passes the first `accepted` uploads to `inner`, then refuses every other.
final class AcceptingThenFailingTransport: UploadTransport {
    struct Refused: Error {}
    let inner: any UploadTransport
    private let remaining: LockedState<Int>

    init(inner: any UploadTransport, accepted: Int) {
        self.inner = inner
        self.remaining = LockedState(accepted)
    }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        let allowed = remaining.withLock { count in
            defer { count -= 1 }
            return count > 0
        }
        return allowed ? inner.upload(request) : Promise(error: Refused())
    }
}
