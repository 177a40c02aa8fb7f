import Foundation
import HealthExport
import HealthExportTestSupport
import HealthFlow

#if canImport(Glibc)
    import Glibc
#endif

// A child process that measures an import's memory: `HealthExportProbe PATH RECORDS` writes an export of RECORDS
// step and heart-rate records to PATH (streamed, 10,000 records a write), imports it into a store that only
// counts, and prints `imported=N maxrss_kb=K`: K is the peak resident memory of this program's own image.
let arguments = CommandLine.arguments
guard arguments.count == 3, let records = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: HealthExportProbe PATH RECORDS\n".utf8))
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

let store = IngestObservingStore(
    InMemoryHealthStore(configuration: HealthAppConfiguration(bundleIdentifier: "probe", name: "Probe")),
    keepsSamples: false)
let done = DispatchSemaphore(value: 0)
HealthExportImport(path: path).start(into: store) { result in
    if case .failure(let error) = result { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
    done.signal()
}
done.wait()
print("imported=\(store.ingestedCount) maxrss_kb=\(ownPeakResidentKilobytes())")

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
