// Gzip benchmarks: 100 MiB of sync JSON (SyncBatchWriter output for generated data) compressed at level 6 by
// GzipCompressor, by zlib called directly with the same settings and chunk sizes, and by the gzip command — the
// same bytes, in the same run.
//
// Run: swift package --disable-sandbox benchmark --target GzipBenchmarks
// Throughput = 104,857,600 bytes / wall clock.

import Benchmark
import BenchmarkSupport
import CZlib
import Foundation
import HealthFlow
import HealthSync

private let inputSize = 100 * 1024 * 1024
/// Input is fed in SyncBatchWriter's chunk size, as the sync engine feeds it.
private let inputChunk = SyncBatchWriter.defaultChunkSize
/// GzipCompressor's output buffer size, used for the direct zlib baseline too.
private let outputChunk = 64 * 1024

/// Exactly 100 MiB of sync-batch JSON: batches of a generated year (hourly steps, every other type as generated),
/// each under its own batch ID, concatenated and cut at 100 MiB.
private func syncJSON() throws -> [UInt8] {
    let samples = try BenchmarkData.generated(days: 365, resolution: .hour).allSamples()
    var json: [UInt8] = []
    json.reserveCapacity(inputSize + 1_000_000)
    var batch: UInt64 = 0
    while json.count < inputSize {
        batch += 1
        let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llX", batch))!
        let header = SyncBatchHeader(
            batchID: id, deviceID: "benchmark-device", createdAt: Date(timeIntervalSince1970: 1_735_689_600))
        var writer = SyncBatchWriter(header: header) { chunk in json.append(contentsOf: chunk) }
        var section: HealthObjectType?
        for sample in samples {
            if sample.type != section {
                try writer.beginSection(sample.type)
                section = sample.type
            }
            try writer.writeSample(sample)
        }
        try writer.finish()
    }
    return Array(json.prefix(inputSize))
}

/// Compresses `input` with zlib's deflate exactly as GzipCompressor configures it (level 6, windowBits 15 + 16,
/// memLevel 8, default strategy), in the same input and output chunk sizes; returns the gzip byte count.
private func zlibDirect(_ input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) -> Int {
    var stream = z_stream()
    guard
        deflateInit2_(
            &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { fatalError("deflateInit2_ failed") }
    defer { deflateEnd(&stream) }
    let out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
    var produced = 0
    var offset = 0
    while true {
        let count = min(inputChunk, input.count - offset)
        let flush = offset + count == input.count ? Z_FINISH : Z_NO_FLUSH
        stream.next_in = UnsafeMutablePointer(
            mutating: (input.baseAddress! + offset).assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(count)
        var status: Int32
        repeat {
            stream.next_out = out
            stream.avail_out = uInt(output.count)
            status = deflate(&stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                fatalError("deflate \(status)")
            }
            produced += output.count - Int(stream.avail_out)
        } while stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)
        offset += count
        if flush == Z_FINISH { return produced }
    }
}

/// Pipes `input` through `gzip -6 -c` and returns the number of bytes it wrote.
private func gzipCommand(_ input: [UInt8]) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-6", "-c"]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    let writer = Thread {
        input.withUnsafeBytes {
            stdin.fileHandleForWriting.write(
                Data(
                    bytesNoCopy: UnsafeMutableRawPointer(mutating: $0.baseAddress!), count: $0.count, deallocator: .none
                ))
        }
        try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    var produced = 0
    while let chunk = try stdout.fileHandleForReading.read(upToCount: outputChunk), !chunk.isEmpty {
        produced += chunk.count
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    return produced
}

let benchmarks: @Sendable () -> Void = {
    let mode = BenchmarkRunMode.current
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], warmupIterations: 1,
        maxDuration: mode.maxDuration(.seconds(20), quick: .seconds(3)), maxIterations: mode.maxIterations(10, quick: 2)
    )

    Benchmark("Gzip100MiB: GzipCompressor level 6, 16 KiB chunks") { (benchmark: Benchmark, input: [UInt8]) in
        for _ in benchmark.scaledIterations {
            let gzip = try GzipCompressor(level: 6)
            var produced = 0
            try input.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = min(inputChunk, bytes.count - offset)
                    produced += try gzip.compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
                        .count
                    offset += count
                }
            }
            produced += try gzip.finish().count
            blackHole(produced)
        }
    } setup: {
        try syncJSON()
    }

    Benchmark("Gzip100MiB: baseline — zlib deflate called directly (same settings and chunks)") {
        (benchmark: Benchmark, input: [UInt8]) in
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: outputChunk, alignment: 1)
        defer { output.deallocate() }
        for _ in benchmark.scaledIterations {
            blackHole(input.withUnsafeBytes { zlibDirect($0, output: output) })
        }
    } setup: {
        try syncJSON()
    }

    Benchmark("Gzip100MiB: peer — gzip -6 command (same bytes through a pipe)") {
        (benchmark: Benchmark, input: [UInt8]) in
        for _ in benchmark.scaledIterations {
            blackHole(try gzipCommand(input))
        }
    } setup: {
        try syncJSON()
    }
}
