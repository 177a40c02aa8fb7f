// Sync benchmarks: 1,000,000 generated samples sent end to end by SyncEngine (gather → JSON → gzip → multipart →
// durable pending file → upload → anchors), to a loopback HTTP receiver and to the outbox (no network), beside
// the serialization + gzip work alone over the same samples, in the same run.
//
// Run: swift package --disable-sandbox benchmark --target SyncBenchmarks
// Another receiver: HEALTHFLOW_RECEIVER_SCRIPT=/path/to/receiver.py (prints its port on its first stdout line)
// and HEALTHFLOW_RECEIVER_UPLOAD_PATH=/upload. Samples/s = 1,000,000 / wall clock.

import Benchmark
import BenchmarkSupport
import FlowKit
import Foundation
import HealthFlow
import HealthSync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let sampleCount = 1_000_000
private let batchSize = SyncEngine.defaultBatchSize

/// What every sync benchmark runs on.
private struct SyncSetup {
    let store: InMemoryHealthStore
    let types: [HealthObjectType]
    /// The samples in the store, type by type.
    let samples: [HealthSample]
}

/// A store holding the first 1,000,000 quantity and category samples of two generated years (type by type:
/// minute-level steps, heart rate, energy, …), readable by the app, and the types to sync.
private func syncStore() async throws -> SyncSetup {
    let data = try BenchmarkData.generated(days: 730, resolution: .minute)
    let samples = Array(BenchmarkData.plainSamples(of: data).prefix(sampleCount))
    precondition(samples.count == sampleCount, "two generated years hold only \(samples.count) samples")
    var types: [HealthObjectType] = []
    for sample in samples where types.last != sample.type { types.append(sample.type) }
    let store = InMemoryHealthStore(configuration: BenchmarkData.app)
    try await store.requestAuthorization(toShare: [], read: Set(types))
    try store.ingest(samples)
    return SyncSetup(store: store, types: types, samples: samples)
}

/// One full sync of `store` through `transport`, with fresh anchors and folders; checks every sample was sent.
private func syncEverything(
    _ store: InMemoryHealthStore, types: [HealthObjectType], transport: (URL) throws -> any UploadTransport
) async throws -> SyncReport {
    let folder = try ScratchFolder(prefix: "sync")
    defer { folder.remove() }
    let engine = try SyncEngine(
        store: store, types: types, anchorStore: AnchorStore(fileURL: folder.url.appendingPathComponent("state.json")),
        transport: try transport(folder.url.appendingPathComponent("outbox")), deviceID: "benchmark-device",
        batchSize: batchSize, tempFolder: folder.url.appendingPathComponent("tmp"))
    let report = try await engine.sync()
    precondition(report.totalSamples == sampleCount, "sent \(report.totalSamples) of \(sampleCount) samples")
    return report
}

/// Writes `batch` (samples grouped by type, in order) into `writer`, one section per run of a type.
private func writeSections(of batch: ArraySlice<HealthSample>, with writer: inout SyncBatchWriter) throws {
    var section: HealthObjectType?
    for sample in batch {
        if sample.type != section {
            try writer.beginSection(sample.type)
            section = sample.type
        }
        try writer.writeSample(sample)
    }
}

/// The bytes of JSON one serialization run wrote.
private let jsonBytes = BenchmarkMetric.custom("JSON bytes", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    let mode = BenchmarkRunMode.current
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], warmupIterations: 0,
        maxDuration: mode.maxDuration(.seconds(120), quick: .seconds(1)), maxIterations: mode.maxIterations(3, quick: 1)
    )

    Benchmark("Sync1M: SyncEngine → HTTPTransport → loopback receiver, batches of 1,000") {
        (benchmark: Benchmark, setup: SyncSetup) in
        let receiver = try LoopbackReceiver.start()
        defer { receiver.stop() }
        for _ in benchmark.scaledIterations {
            let before = try await receiver.stats().samples
            benchmark.startMeasurement()
            let report = try await syncEverything(setup.store, types: setup.types) { _ in
                HTTPTransport(url: receiver.uploadURL)
            }
            benchmark.stopMeasurement()
            let received = try await receiver.stats().samples - before
            precondition(received == sampleCount, "the receiver counted \(received) of \(sampleCount) samples")
            blackHole(report)
        }
    } setup: {
        try await syncStore()
    }

    Benchmark("Sync1M: SyncEngine → OutboxTransport (no network), batches of 1,000") {
        (benchmark: Benchmark, setup: SyncSetup) in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let report = try await syncEverything(setup.store, types: setup.types) {
                try OutboxTransport(directory: $0)
            }
            benchmark.stopMeasurement()
            blackHole(report)
        }
    } setup: {
        try await syncStore()
    }

    Benchmark("Sync1M: baseline — the store alone (built, nothing synced), for peak RSS") {
        (benchmark: Benchmark, setup: SyncSetup) in
        for _ in benchmark.scaledIterations { blackHole(setup.store) }
    } setup: {
        try await syncStore()
    }

    Benchmark(
        "Serialize1M: SyncBatchWriter alone (JSON, no gzip), batches of 1,000, one core",
        configuration: .init(
            metrics: [.wallClock, .cpuUser, .mallocCountTotal, .peakMemoryResident, jsonBytes], warmupIterations: 0,
            maxDuration: mode.maxDuration(.seconds(120), quick: .seconds(1)),
            maxIterations: mode.maxIterations(3, quick: 1))
    ) { (benchmark: Benchmark, setup: SyncSetup) in
        let samples = setup.samples
        for _ in benchmark.scaledIterations {
            var bytes: Int64 = 0
            for start in stride(from: 0, to: samples.count, by: batchSize) {
                let header = SyncBatchHeader(batchID: UUID(), deviceID: "benchmark-device", createdAt: Date())
                var writer = SyncBatchWriter(header: header) { chunk in blackHole(chunk.count) }
                try writeSections(of: samples[start..<min(start + batchSize, samples.count)], with: &writer)
                bytes += try writer.finish()
            }
            // MB/s = this byte count / the wall clock.
            benchmark.measurement(jsonBytes, Int(bytes))
        }
    } setup: {
        try await syncStore()
    }

    Benchmark("Sync1M: baseline — SyncBatchWriter + GzipCompressor alone, batches of 1,000") {
        (benchmark: Benchmark, setup: SyncSetup) in
        // The same samples in the same batches, serialized and gzipped into memory: no store, no files, no upload.
        let samples = setup.samples
        for _ in benchmark.scaledIterations {
            var bytes = 0
            for start in stride(from: 0, to: samples.count, by: batchSize) {
                let gzip = try GzipCompressor()
                let header = SyncBatchHeader(batchID: UUID(), deviceID: "benchmark-device", createdAt: Date())
                var writer = SyncBatchWriter(header: header) { chunk in bytes += try gzip.compress(chunk).count }
                try writeSections(of: samples[start..<min(start + batchSize, samples.count)], with: &writer)
                try writer.finish()
                bytes += try gzip.finish().count
            }
            blackHole(bytes)
        }
    } setup: {
        try await syncStore()
    }
}
