// A test helper, not a product: one `SyncEngine` run over a `FileHealthStore`, uploading to a real HTTP receiver,
// that can stop dead at a chosen step so the crash tests can SIGKILL it exactly there.
//
//     SyncProbe DATA_DIR URL [--batch-size N] [--stop-at STEP[:K]]
//
// STEP is a SyncCheckpoint name (gathered, written, renamed, persisted, acknowledged, committed, state-written,
// state-renamed) or mid-body; K (default 1) picks its K-th occurrence in the run.
//
// The store lives in DATA_DIR/store, the sync state in DATA_DIR/sync-state.json, temp bodies in DATA_DIR/sync-tmp.
// Bodies are always streamed (chunked, no Content-Length), as large batches are in production. With --stop-at the
// probe prints `passed NAME BATCH-ID` for each checkpoint before the chosen one, then `checkpoint NAME BATCH-ID`
// when it reaches it, and blocks forever; `mid-body` stops inside the first upload after half of the body was
// handed to the HTTP stack. Without it the run ends with one line, `report batches=B samples=S duplicates=D`, and
// exit status 0.

import FlowKit
import Foundation
import HealthFlow
@_spi(Testing) import HealthSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let url = URL(string: arguments[1]) else {
    SyncProbe.fail("usage: SyncProbe DATA_DIR URL [--batch-size N] [--stop-at STEP]", status: 2)
}
let directory = URL(fileURLWithPath: arguments[0], isDirectory: true)
var batchSize = 40
var stopAt: String?
var occurrence = 1
var rest = arguments.dropFirst(2)
while let option = rest.popFirst() {
    switch (option, rest.popFirst()) {
    case ("--batch-size", let value?): batchSize = Int(value) ?? 0
    case ("--stop-at", let value?):
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        guard let step = parts.first, SyncProbe.steps.contains(step) else { SyncProbe.fail("unknown step", status: 2) }
        stopAt = step
        occurrence = parts.count == 2 ? Int(parts[1]) ?? 0 : 1
    default: SyncProbe.fail("unknown option \(option)", status: 2)
    }
}

do {
    let store = try FileHealthStore(
        directory: directory.appendingPathComponent("store", isDirectory: true), configuration: SyncProbe.app)
    defer { store.close() }
    try await store.requestAuthorization(toShare: [], read: Set(SyncProbe.types)) as Void
    let http = HTTPTransport(url: url, timeout: .seconds(30), dataThreshold: 0)
    let transport: any UploadTransport = stopAt == "mid-body" ? HaltingTransport(inner: http) : http
    var engine = try SyncEngine(
        store: store, types: SyncProbe.types,
        anchorStore: AnchorStore(fileURL: directory.appendingPathComponent("sync-state.json")),
        transport: transport, deviceID: "sync-probe", batchSize: batchSize,
        tempFolder: directory.appendingPathComponent("sync-tmp", isDirectory: true))
    if let stopAt {
        let (passed, occurrence) = (StepCounter(), occurrence)
        engine = engine.reportingCheckpoints { point in
            let count = passed.count.withLock { count in
                if point.name == stopAt { count += 1 }
                return count
            }
            if point.name == stopAt && count == occurrence { SyncProbe.halt("checkpoint \(point)") }
            FileHandle.standardOutput.write(Data("passed \(point)\n".utf8))
        }
    }
    let report: SyncReport = try await engine.sync()
    print("report batches=\(report.batches) samples=\(report.totalSamples) duplicates=\(report.duplicates)")
} catch {
    SyncProbe.fail("sync failed: \(error)", status: 1)
}

enum SyncProbe {
    static let steps: Set<String> = [
        "gathered", "written", "renamed", "persisted", "mid-body", "acknowledged", "committed", "state-written",
        "state-renamed",
    ]
    static let types: [HealthObjectType] = [.heartRate, .stepCount]
    static let app = HealthAppConfiguration(
        bundleIdentifier: "dev.healthflow.sync-probe", name: "Sync probe", healthShareUsageDescription: "reads",
        healthUpdateUsageDescription: "writes")

    /// Prints `line` (unbuffered) and blocks this thread for good: the test SIGKILLs the process here.
    static func halt(_ line: String) -> Never {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
        while true { pause() }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("SyncProbe: \(message)\n".utf8))
        exit(status)
    }
}

/// How many times the run passed the step it stops at.
final class StepCounter: Sendable {
    let count = LockedState(0)
}

/// Uploads through `inner`, but the body stream stops dead halfway: `checkpoint mid-body ID` is printed and the
/// read never returns.
struct HaltingTransport: UploadTransport {
    let inner: any UploadTransport

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        let body = request.body
        let halting = UploadRequest(
            batchID: request.batchID, contentType: request.contentType, contentLength: request.contentLength,
            fileExtension: request.fileExtension,
            body: .stream {
                HaltingInputStream(
                    data: try body.makeData(), haltAt: Int(request.contentLength / 2),
                    line: "checkpoint mid-body \(request.batchID.uuidString)")
            })
        return inner.upload(halting)
    }
}

/// Serves `data` up to `haltAt`, then halts the process's progress (see ``SyncProbe/halt(_:)``) on the next read.
final class HaltingInputStream: InputStream {
    private let data: Data
    private let haltAt: Int
    private let line: String
    private var offset = 0
    private var status: Stream.Status = .notOpen

    init(data: Data, haltAt: Int, line: String) {
        self.data = data
        self.haltAt = max(1, min(haltAt, data.count - 1))
        self.line = line
        super.init(data: Data())
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { nil }
    override var hasBytesAvailable: Bool { status == .open }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        status = .closed
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

    override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        if offset >= haltAt { SyncProbe.halt(line) }
        let count = min(len, haltAt - offset)
        _ = data.withUnsafeBytes { raw in
            raw.copyBytes(
                to: UnsafeMutableRawBufferPointer(start: buffer, count: count), from: offset..<(offset + count))
        }
        offset += count
        return count
    }
}
