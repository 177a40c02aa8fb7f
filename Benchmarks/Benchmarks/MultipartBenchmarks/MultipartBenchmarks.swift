// Multipart benchmarks: one 1 GiB streamed part, from an in-memory source, read through the multipart encoder's
// InputStream with a fixed buffer — beside reading the same source directly with the same buffer, in the same
// run. Peak RSS is the process's (package-benchmark's peakMemoryResident).
//
// Run: swift package --disable-sandbox benchmark --target MultipartBenchmarks
// Throughput = 1,073,741,824 bytes / wall clock.

import Benchmark
import BenchmarkSupport
import Foundation
import HealthSync

private let partLength: Int64 = 1 << 30
private let readBufferSize = 64 * 1024

/// An `InputStream` of `length` bytes that copies from one 1 MiB block in memory, over and over: an in-memory
/// source of any length at constant memory.
private final class RepeatingBlockStream: InputStream {
    private static let block: [UInt8] = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    private let length: Int64
    private var offset: Int64 = 0
    private var status: Stream.Status = .notOpen

    init(length: Int64) {
        self.length = length
        super.init(data: Data())
    }

    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { status == .open }
    override func open() { status = length == 0 ? .atEnd : .open }
    override func close() { status = .closed }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        let blockOffset = Int(offset % Int64(Self.block.count))
        let count = Int(min(Int64(len), length - offset, Int64(Self.block.count - blockOffset)))
        Self.block.withUnsafeBufferPointer { block in
            buffer.update(from: block.baseAddress! + blockOffset, count: count)
        }
        offset += Int64(count)
        if offset == length { status = .atEnd }
        return count
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool { false }
}

/// Reads `stream` to its end with one fixed buffer; returns the byte count.
private func drain(_ stream: InputStream, buffer: UnsafeMutablePointer<UInt8>) -> Int64 {
    stream.open()
    defer { stream.close() }
    var total: Int64 = 0
    while true {
        let count = stream.read(buffer, maxLength: readBufferSize)
        precondition(count >= 0, "the stream failed: \(String(describing: stream.streamError))")
        if count == 0 { return total }
        total += Int64(count)
    }
}

let benchmarks: @Sendable () -> Void = {
    let mode = BenchmarkRunMode.current
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], warmupIterations: 1,
        maxDuration: mode.maxDuration(.seconds(20), quick: .seconds(3)), maxIterations: mode.maxIterations(10, quick: 2)
    )

    Benchmark("Multipart1GiB: MultipartBody.makeInputStream(), 64 KiB reads") { benchmark in
        let part = try MultipartPart(
            name: "export", filename: "export.json.gz", contentType: "application/gzip", length: partLength,
            makeStream: { RepeatingBlockStream(length: partLength) })
        let body = try MultipartBody(parts: [part])
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: readBufferSize)
        defer { buffer.deallocate() }
        for _ in benchmark.scaledIterations {
            let total = drain(body.makeInputStream(), buffer: buffer)
            precondition(total == body.contentLength, "read \(total) of \(body.contentLength) bytes")
        }
    }

    Benchmark("Multipart1GiB: baseline — the same source read directly, 64 KiB reads") { benchmark in
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: readBufferSize)
        defer { buffer.deallocate() }
        for _ in benchmark.scaledIterations {
            let total = drain(RepeatingBlockStream(length: partLength), buffer: buffer)
            precondition(total == partLength, "read \(total) of \(partLength) bytes")
        }
    }
}
