// Import benchmarks: a generated Health export (1,000,000 records, about 485 MB of export.xml, written by
// Benchmarks/generate-health-export.py) imported into the durable store as `healthflow import` does, and into
// the disk-backed store (SegmentedHealthStoreBackend), beside healthkit-to-sqlite — the established open-source
// tool for the job — on the same file in the same run.
//
// Run: swift package --disable-sandbox benchmark --target ImportBenchmarks
// HEALTHFLOW_IMPORT_RECORDS=200000 imports a smaller export. The export and healthkit-to-sqlite's virtual
// environment (pinned by Benchmarks/healthkit-to-sqlite-requirements.txt) are made once, under .build.

import Benchmark
import BenchmarkSupport
import Foundation
import HealthExport
import HealthFlow

/// How many records the generated export holds.
private let records = Int(ProcessInfo.processInfo.environment["HEALTHFLOW_IMPORT_RECORDS"] ?? "") ?? 1_000_000

/// The Benchmarks package's folder.
private let packageFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Where the export and the virtual environment are kept between runs (the build folder: a cache, not source).
private let cacheFolder = packageFolder.appendingPathComponent(".build/healthflow-import")

/// Runs `executable` with `arguments` and waits; throws unless it exits with status 0.
private func run(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: "\(executable) \(arguments)"])
    }
}

/// The export of `records` records, generated on first use (into a temporary name, renamed when complete).
private func exportPath() throws -> String {
    try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
    let path = cacheFolder.appendingPathComponent("export-\(records).xml").path
    if !FileManager.default.fileExists(atPath: path) {
        let partial = path + ".partial"
        try run(
            "/usr/bin/env",
            ["python3", packageFolder.appendingPathComponent("generate-health-export.py").path, "\(records)", partial])
        try FileManager.default.moveItem(atPath: partial, toPath: path)
    }
    return path
}

/// healthkit-to-sqlite's command, installed on first use into a virtual environment of its own at the pinned
/// versions.
private func healthkitToSQLite() throws -> String {
    let requirements = packageFolder.appendingPathComponent("healthkit-to-sqlite-requirements.txt").path
    let venv = cacheFolder.appendingPathComponent("venv-healthkit-to-sqlite").path
    let command = venv + "/bin/healthkit-to-sqlite"
    if !FileManager.default.isExecutableFile(atPath: command) {
        try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        try run("/usr/bin/env", ["python3", "-m", "venv", venv])
        try run(venv + "/bin/python3", ["-m", "pip", "install", "--quiet", "-r", requirements])
    }
    return command
}

/// The number of records healthkit-to-sqlite stored in `database` (one table per record type, named `r…`).
private func recordsStored(in database: String, python: String) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
        "-c",
        """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        names = [r[0] for r in db.execute("select name from sqlite_master where type = 'table' and name like 'r%'")]
        print(sum(db.execute(f'select count(*) from "{name}"').fetchone()[0] for name in names))
        """,
        database,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
}

let benchmarks: @Sendable () -> Void = {
    let mode = BenchmarkRunMode.current
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuUser, .peakMemoryResident], warmupIterations: 0,
        maxDuration: mode.maxDuration(.seconds(600)), maxIterations: mode.maxIterations(3, quick: 1))

    // As `healthflow import` does: no automatic snapshot on the way, one at the end.
    Benchmark("Import1M: healthflow — HealthExportImport into FileHealthStore, then its snapshot") { benchmark in
        let path = try exportPath()
        for _ in benchmark.scaledIterations {
            let folder = try ScratchFolder(prefix: "import")
            defer { folder.remove() }
            let store = try FileHealthStore(
                directory: folder.url.appendingPathComponent("store"), configuration: BenchmarkData.app)
            store.takesAutomaticSnapshots = false
            benchmark.startMeasurement()
            let report = try await HealthExportImport(path: path).run(into: store)
            try store.snapshot()
            benchmark.stopMeasurement()
            store.close()
            precondition(report.importedCount == records, "imported \(report.importedCount) of \(records)")
        }
    }

    // The store that keeps its samples on disk: memory bounded by its memtables, not by the export.
    Benchmark("Import1M: healthflow — HealthExportImport into BackedHealthStore over SegmentedHealthStoreBackend") {
        benchmark in
        let path = try exportPath()
        for _ in benchmark.scaledIterations {
            let folder = try ScratchFolder(prefix: "import-segments")
            defer { folder.remove() }
            let backend = try SegmentedHealthStoreBackend(
                directory: FileSystemPath(folder.url.appendingPathComponent("segments").path))
            let store = BackedHealthStore(backend: backend, configuration: BenchmarkData.app)
            benchmark.startMeasurement()
            let report = try await HealthExportImport(path: path).run(into: store)
            benchmark.stopMeasurement()
            backend.close()
            precondition(report.importedCount == records, "imported \(report.importedCount) of \(records)")
        }
    }

    // The tool runs as a child process under /usr/bin/time, whose report gives the child's own CPU time and
    // peak RSS (the benchmark's cpuUser and peakMemoryResident see only this process).
    let childCPU = BenchmarkMetric.custom("child user + system CPU (ms)")
    let childRSS = BenchmarkMetric.custom("child peak RSS (MB)")
    Benchmark(
        "Import1M: baseline — healthkit-to-sqlite 1.0.1 (Python, SQLite) on the same export.xml",
        configuration: .init(
            metrics: [.wallClock, childCPU, childRSS], warmupIterations: 0,
            maxDuration: mode.maxDuration(.seconds(600)), maxIterations: mode.maxIterations(3, quick: 1))
    ) { benchmark in
        let path = try exportPath()
        let command = try healthkitToSQLite()
        for _ in benchmark.scaledIterations {
            let folder = try ScratchFolder(prefix: "import-sqlite")
            defer { folder.remove() }
            let database = folder.url.appendingPathComponent("healthkit.db").path
            let times = folder.url.appendingPathComponent("time.txt").path
            benchmark.startMeasurement()
            try run("/usr/bin/time", ["-f", "%U %S %M", "-o", times, command, path, database, "--xml", "--silent"])
            benchmark.stopMeasurement()
            let fields = try String(contentsOfFile: times, encoding: .utf8).split(whereSeparator: \.isWhitespace)
                .compactMap { Double($0) }
            if fields.count == 3 {
                benchmark.measurement(childCPU, Int((fields[0] + fields[1]) * 1_000))
                benchmark.measurement(childRSS, Int(fields[2] / 1_024))
            }
            let stored = try recordsStored(
                in: database, python: URL(fileURLWithPath: command).deletingLastPathComponent().path + "/python3")
            precondition(stored == records, "healthkit-to-sqlite stored \(stored) of \(records)")
        }
    }
}
