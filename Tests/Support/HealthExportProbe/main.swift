import FlowKit
import Foundation
import HealthExport
import HealthExportTestSupport
import HealthFlow

#if canImport(Glibc)
    import Glibc
#endif

// A child process that measures an import's memory: `HealthExportProbe PATH RECORDS [SEGMENTS-DIR]` writes an
// export of RECORDS step and heart-rate records to PATH (streamed, 10,000 records a write), imports it into a store
// that only counts — or, given SEGMENTS-DIR, into a BackedHealthStore over a SegmentedHealthStoreBackend there —
// and prints `imported=N maxrss_kb=K`: K is the peak resident memory of this program's own image.
let arguments = CommandLine.arguments
// `HealthExportProbe --backend DIR COUNT`: COUNT step samples, a minute apart, straight into a
// SegmentedHealthStoreBackend in DIR in batches of 1,000 (no store rules, no XML), then the same line.
if arguments.count == 4, arguments[1] == "--backend", let count = Int(arguments[3]) {
    var backend = try SegmentedHealthStoreBackend(directory: FileSystemPath(arguments[2]))
    let unit = try HealthUnit(from: "count")
    let source = HealthSource(bundleIdentifier: "probe", name: "Probe")
    let origin = Date(timeIntervalSinceReferenceDate: 700_000_000)
    for first in stride(from: 0, to: count, by: 1_000) {
        let batch = try (first..<min(count, first + 1_000)).map { index in
            let start = origin + Double(index) * 60
            return StoredHealthSample(
                sample: .quantity(
                    try HealthQuantitySample(
                        type: .stepCount, quantity: HealthQuantity(unit: unit, doubleValue: Double(index % 500)),
                        start: start, end: start + 60, source: source, metadata: [:], uuid: UUID())),
                correlation: nil)
        }
        try backend.insert(batch)
    }
    let stored = backend.lastSequence
    backend.close()
    print("imported=\(stored) maxrss_kb=\(ownPeakResidentKilobytes())")
    exit(0)
}
// `HealthExportProbe --import EXPORT DIR`: imports an existing export into a BackedHealthStore over a
// SegmentedHealthStoreBackend in DIR, then prints the same line.
if arguments.count == 4, arguments[1] == "--import" {
    let backend = try SegmentedHealthStoreBackend(directory: FileSystemPath(arguments[3]))
    let imported = importExport(
        at: arguments[2], into: BackedHealthStore(backend: backend, configuration: probeConfiguration))
    backend.close()
    print("imported=\(imported) maxrss_kb=\(ownPeakResidentKilobytes())")
    exit(0)
}
guard arguments.count == 3 || arguments.count == 4, let records = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: HealthExportProbe PATH RECORDS [SEGMENTS-DIR]\n".utf8))
    exit(2)
}
let path = arguments[1]
guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
    FileHandle.standardError.write(Data("cannot create \(path)\n".utf8))
    exit(1)
}
file.write(
    Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
        ]>
        <HealthData locale="en_US">

        """.utf8))
var chunk = ""
for index in 0..<records {
    let minute = index % 60
    let hour = (index / 60) % 24
    let day = (index / 1440) % 28 + 1
    let month = (index / 40_320) % 12 + 1
    let year = 2000 + index / 483_840
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let date = "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):00 +0200"
    chunk +=
        index % 2 == 0
        ? " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Zoë’s iPhone\" sourceVersion=\"17.2\" unit=\"count\" creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(index % 500)\"/>\n"
        : " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Apple Watch\" sourceVersion=\"10.2\" unit=\"count/min\" creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(60 + index % 60)\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>\n </Record>\n"
    if index % 10_000 == 9_999 {
        file.write(Data(chunk.utf8))
        chunk = ""
    }
}
file.write(Data((chunk + "</HealthData>\n").utf8))
try file.close()

if arguments.count == 4 {
    let backend = try SegmentedHealthStoreBackend(directory: FileSystemPath(arguments[3]))
    let imported = importExport(at: path, into: BackedHealthStore(backend: backend, configuration: probeConfiguration))
    backend.close()
    print("imported=\(imported) maxrss_kb=\(ownPeakResidentKilobytes())")
} else {
    let counter = IngestObservingStore(InMemoryHealthStore(configuration: probeConfiguration), keepsSamples: false)
    _ = importExport(at: path, into: counter)
    print("imported=\(counter.ingestedCount) maxrss_kb=\(ownPeakResidentKilobytes())")
}

/// Imports the export at `path` into `store`; returns the samples imported (0 after an error, which goes to
/// standard error).
func importExport(at path: String, into store: some HealthStore) -> Int {
    let imported = LockedState(0)
    let done = DispatchSemaphore(value: 0)
    HealthExportImport(path: path).start(into: store) { result in
        switch result {
        case .success(let report): imported.withLock { $0 = report.importedCount }
        case .failure(let error): FileHandle.standardError.write(Data("\(error)\n".utf8))
        }
        done.signal()
    }
    done.wait()
    return imported.withLock { $0 }
}

/// The peak resident memory, in KB, of this program since it started. On Linux `getrusage`'s `ru_maxrss` is not
/// that: `execve` keeps the larger of the new image's peak and the peak of the image it replaced, which for a
/// spawned child is its parent's (a test process of hundreds of MB). The kernel's `VmHWM` in `/proc/self/status`
/// is the high-water mark of this image alone.
func ownPeakResidentKilobytes() -> Int {
    #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) })
        {
            return kilobytes
        }
        return -1
    #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
    #endif
}

/// The app the probe's stores belong to.
var probeConfiguration: HealthAppConfiguration {
    HealthAppConfiguration(
        bundleIdentifier: "probe", name: "Probe", healthShareUsageDescription: "Reads the import back.",
        healthUpdateUsageDescription: "Stores the imported records.")
}
