import FlowKit
import Foundation
import HealthFlow
import HealthSync
import Testing

struct SyncEngineBatchTests {
    @Test(arguments: [1, 3, 4, 7, 100])
    func largeHistoriesAreSplitIntoBatchesOfTheConfiguredSize(size: Int) async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(7)
        let steps = try SyncEngineBench.steps(5, first: 100)
        try bench.store.ingest(hearts + steps)

        let report = try await bench.engine(batchSize: size).sync()
        let batches = try bench.deliveredBatches()
        #expect(report.batches == (12 + size - 1) / size)
        #expect(batches.count == report.batches)
        #expect(batches.values.allSatisfy { $0.sampleUUIDs.count <= size })
        let delivered = batches.values.flatMap(\.sampleUUIDs)
        #expect(delivered.count == 12)
        #expect(Set(delivered) == Set((hearts + steps).map(\.uuid)))
        #expect(report.samples == ["heartRate": 7, "stepCount": 5])
        #expect(try await bench.engine(batchSize: size).sync().isEmpty)
    }

    @Test func aBatchSizeBelowOneIsRejected() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        #expect(throws: SyncEngineError.invalidBatchSize(0)) { try bench.engine(batchSize: 0) }
    }

    @Test func tempFilesArePrivateAndGoneAfterSuccess() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let watching = SyncEngineWatchingTransport(inner: bench.outbox, tempFolder: bench.tempURL)
        let report = try await bench.engine(transport: watching, batchSize: 2, inMemoryLimit: 0).sync()

        // Each upload finds its own batch's temp body, and at most those of the two batches after it, built ahead
        // meanwhile.
        #expect(watching.observed.count == 3 && report.batchIDs.count == 3)
        for (index, files) in watching.observed.enumerated() {
            let own = files.keys.filter { $0.contains(report.batchIDs[index].uuidString) }
            let ahead = report.batchIDs.dropFirst(index + 1).prefix(2).map(\.uuidString)
            #expect(own.count == 1)
            let known = files.keys.allSatisfy { name in own.contains(name) || ahead.contains { name.contains($0) } }
            #expect(known, "\(files)")
            #expect(files.count <= 3)
            #expect(files.values.allSatisfy { $0 == 0o600 })
        }
        #expect(try bench.tempFiles().isEmpty)
        #expect(try bench.folder.permissions(of: bench.tempURL) == 0o700)
    }

    @Test func tempFilesAreGoneAfterFailure() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let rejecting = SyncEngineRejectingTransport(tempFolder: bench.tempURL)
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: rejecting, inMemoryLimit: 0).sync()
        }
        #expect(rejecting.attempts.first?.tempFiles.count == 1)
        #expect(try bench.tempFiles().isEmpty)
    }

    @Test func smallBatchesAreSentFromMemory() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let watching = SyncEngineWatchingTransport(inner: bench.outbox, tempFolder: bench.tempURL)
        _ = try await bench.engine(transport: watching, inMemoryLimit: 1 << 20).sync()
        #expect(watching.observed == [[:]])
        #expect(try bench.deliveredUUIDs().samples.count == 5)
    }

    @Test func theGzippedJSONInsideTheMultipartBodyHoldsTheBatch() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(3)
        try bench.store.ingest(hearts)
        let report = try await bench.engine().sync()
        let id = try #require(report.batchIDs.first)
        let batch = try #require(try bench.deliveredBatches()[id])
        #expect(batch.partHeaders.contains("name=\"batch\""))
        #expect(batch.partHeaders.contains("filename=\"batch-\(id.uuidString).json.gz\""))
        #expect(batch.partHeaders.contains("Content-Type: application/gzip"))
        #expect(batch.batchID == id.uuidString)
        #expect(batch.json["deviceID"] as? String == "device-1")
        #expect(batch.json["schemaVersion"] as? Int == 1)
        #expect(batch.sections.map { $0["type"] as? String } == ["heartRate"])
        #expect(batch.sampleUUIDs == hearts.map(\.uuid))
    }
}
