// Store benchmarks: saving a million samples, date-range queries as the store grows, a year of minute-level
// steps summed per day and a year of minute-level heart rates averaged per day — each beside a hand-written baseline over a plain array (or raw file writes), in the
// same run.
//
// Run: swift package --disable-sandbox benchmark --target StoreBenchmarks

import Benchmark
import BenchmarkSupport
import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private let saveCount = 1_000_000
private let saveBatch = 1_000
private let queryWindow = 1_000
private let start = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z

private var utc: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0)!
    return calendar
}

/// `count` heart-rate samples from the benchmark app, one minute apart from `start`.
private func heartRates(_ count: Int) -> [HealthSample] {
    let unit = HealthUnit.count().unitDivided(by: .minute())
    return (0..<count).map { index in
        let date = start.addingTimeInterval(Double(index) * 60)
        // The values are valid by construction: a failure here is a bug in the benchmark.
        return .quantity(
            try! HealthQuantitySample(
                type: .heartRate, quantity: HealthQuantity(unit: unit, doubleValue: 55 + Double(index % 60)),
                date: date, source: BenchmarkData.source))
    }
}

/// An in-memory store holding `samples`, the app allowed to write and read heart rate and steps.
private func filledStore(_ samples: [HealthSample]) async throws -> InMemoryHealthStore {
    let store = InMemoryHealthStore(configuration: BenchmarkData.app)
    try await store.requestAuthorization(toShare: [.heartRate, .stepCount], read: [.heartRate, .stepCount])
    try store.ingest(samples)
    return store
}

/// The 1,000-minute window in the middle of `count` one-minute samples.
private func middleWindow(of count: Int) -> (start: Date, end: Date) {
    let first = start.addingTimeInterval(Double(count / 2) * 60)
    return (first, first.addingTimeInterval(Double(queryWindow) * 60))
}

/// Appends `bytes` bytes to a new file in `folder` in `writes` writes, each followed by `fsync`: the disk floor
/// for making the same journal durable in the same number of steps.
private func rawDurableWrites(bytes: Int, writes: Int, in folder: URL) throws {
    let path = folder.appendingPathComponent("raw-journal").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let chunk = [UInt8](repeating: 0x5A, count: (bytes + writes - 1) / writes)
    var left = bytes
    while left > 0 {
        let count = min(left, chunk.count)
        let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, count) }
        guard written == count, fsync(descriptor) == 0 else { throw CocoaError(.fileWriteUnknown) }
        left -= count
    }
}

/// `samples` cut into batches of 1,000, made before a row's measurement starts: the save rows hand each batch to
/// the store and the `Array.append` baseline appends it, so neither row pays for copying the samples into batches.
private func batches(_ samples: [HealthSample]) -> [[HealthSample]] {
    stride(from: 0, to: samples.count, by: saveBatch).map { Array(samples[$0..<$0 + saveBatch]) }
}

/// Saves `batches` through the callback API of a store whose completions run inline.
private func saveInBatches(_ batches: [[HealthSample]], into store: InMemoryHealthStore) {
    for batch in batches {
        store.save(batch) { success, error in
            precondition(success, "the store refused a batch: \(String(describing: error))")
        }
    }
}

/// The total size of the regular files in `folder`.
private func folderSize(_ folder: URL) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.reduce(0) { total, name in
        let size = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]
        return total + ((size as? NSNumber)?.intValue ?? 0)
    }
}

let benchmarks: @Sendable () -> Void = {
    let mode = BenchmarkRunMode.current
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], warmupIterations: 1,
        maxDuration: mode.maxDuration(.seconds(30)), maxIterations: mode.maxIterations(5, quick: 2))

    /// A row gated on its malloc count in CI (`ci-check-allocations.sh`): at most `iterations` runs.
    func gated(iterations: Int) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], warmupIterations: 1,
            maxDuration: mode.maxDuration(.seconds(30)), maxIterations: mode.maxIterations(iterations, quick: 2),
            thresholds: AllocationGate.thresholds)
    }

    // MARK: 5a. Save 1,000,000 samples (batches of 1,000)

    Benchmark("Save1M: InMemoryHealthStore.save, batches of 1,000") { benchmark in
        let batches = batches(heartRates(saveCount))
        for _ in benchmark.scaledIterations {
            let store = InMemoryHealthStore(configuration: BenchmarkData.app)
            try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
            benchmark.startMeasurement()
            for batch in batches { try await store.save(batch) }
            benchmark.stopMeasurement()
            blackHole(store)
        }
    }

    // The awaited row's malloc count depends on whether each `await` suspends (measured 28,066–28,147 between
    // runs), so CI gates this twin instead: the same saves through the callback API, completions run inline.
    let gatedSaveConfiguration = gated(iterations: 5)

    Benchmark(
        "Save1M: InMemoryHealthStore.save, batches of 1,000, completions on .immediate (deterministic twin)",
        configuration: gatedSaveConfiguration
    ) { benchmark in
        let batches = batches(heartRates(saveCount))
        for _ in benchmark.scaledIterations {
            let store = InMemoryHealthStore(configuration: BenchmarkData.app, callbackExecutor: .immediate)
            try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
            benchmark.startMeasurement()
            saveInBatches(batches, into: store)
            benchmark.stopMeasurement()
            blackHole(store)
        }
    }

    Benchmark("Save1M: baseline — Array.append of the same samples, batches of 1,000") { benchmark in
        let batches = batches(heartRates(saveCount))
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            var array: [HealthSample] = []
            for batch in batches { array.append(contentsOf: batch) }
            benchmark.stopMeasurement()
            blackHole(array)
        }
    }

    Benchmark("Save1M: FileHealthStore.save (journal + fsync), batches of 1,000") { benchmark in
        let batches = batches(heartRates(saveCount))
        for _ in benchmark.scaledIterations {
            let folder = try ScratchFolder(prefix: "store")
            defer { folder.remove() }
            let store = try FileHealthStore(
                directory: folder.url.appendingPathComponent("db"), configuration: BenchmarkData.app)
            defer { store.close() }
            try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
            benchmark.startMeasurement()
            for batch in batches { try await store.save(batch) }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("Save1M: baseline — raw write + fsync of the same bytes, 1,000 writes") { benchmark in
        // The byte count is what FileHealthStore wrote for the same samples (journal and snapshots).
        let batches = batches(heartRates(saveCount))
        let sizing = try ScratchFolder(prefix: "store-size")
        let bytes: Int
        do {
            defer { sizing.remove() }
            let directory = sizing.url.appendingPathComponent("db")
            let store = try FileHealthStore(directory: directory, configuration: BenchmarkData.app)
            try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
            for batch in batches { try await store.save(batch) }
            store.close()
            bytes = folderSize(directory)
        }
        for _ in benchmark.scaledIterations {
            let folder = try ScratchFolder(prefix: "raw")
            defer { folder.remove() }
            benchmark.startMeasurement()
            try rawDurableWrites(bytes: bytes, writes: saveCount / saveBatch, in: folder.url)
            benchmark.stopMeasurement()
        }
    }

    // MARK: 5b. Date-range query: 1,000 samples out of n (flat in n)

    let queryConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 3,
        maxDuration: mode.maxDuration(.seconds(3)), maxIterations: mode.maxIterations(1_000, quick: 20))

    for size in [10_000, 100_000, 1_000_000] {
        let label = size == 1_000_000 ? "1M" : "\(size / 1_000)k"

        Benchmark(
            "Query1000of\(label): InMemoryHealthStore samples(matching: date range)", configuration: queryConfiguration
        ) {
            (benchmark: Benchmark, store: InMemoryHealthStore) in
            let window = middleWindow(of: size)
            for _ in benchmark.scaledIterations {
                let found = try await store.samples(
                    of: .heartRate, matching: .samples(withStart: window.start, end: window.end))
                precondition(found.count == queryWindow, "expected \(queryWindow) samples, got \(found.count)")
                blackHole(found)
            }
        } setup: {
            try await filledStore(heartRates(size))
        }

        Benchmark("Query1000of\(label): baseline — linear scan of an array", configuration: queryConfiguration) {
            (benchmark: Benchmark, samples: [HealthSample]) in
            let window = middleWindow(of: size)
            for _ in benchmark.scaledIterations {
                let found = samples.filter { $0.startDate >= window.start && $0.startDate < window.end }
                precondition(found.count == queryWindow, "expected \(queryWindow) samples, got \(found.count)")
                blackHole(found)
            }
        } setup: {
            heartRates(size)
        }
    }

    // MARK: 5c. A year of minute-level steps → daily sums

    // The store's statistics rows are gated on their malloc counts in CI (ci-check-allocations.sh).
    let statisticsConfiguration = gated(iterations: 20)

    Benchmark(
        "StepsYear: InMemoryHealthStore statisticsCollection, daily cumulativeSum of 525,600 samples",
        configuration: statisticsConfiguration
    ) { (benchmark: Benchmark, store: InMemoryHealthStore) in
        for _ in benchmark.scaledIterations {
            let collection = try await store.statisticsCollection(
                of: .stepCount, options: .cumulativeSum, anchorDate: start,
                intervalComponents: DateComponents(day: 1), calendar: utc)
            precondition((365...366).contains(collection.statistics().count), "expected a year of days")
            blackHole(collection)
        }
    } setup: {
        let year = try BenchmarkData.generated(days: 365, resolution: .minute)
        let steps = year.quantitySamples(of: .stepCount).map(HealthSample.quantity)
        precondition(steps.count == 525_600, "expected 525,600 minute samples, got \(steps.count)")
        return try await filledStore(steps)
    }

    Benchmark(
        "StepsYear: baseline — one pass over a sorted array, summing per day", configuration: statisticsConfiguration
    ) { (benchmark: Benchmark, steps: [HealthQuantitySample]) in
        for _ in benchmark.scaledIterations {
            var sums = [Double](repeating: 0, count: 366)
            for sample in steps {
                let day = Int(sample.startDate.timeIntervalSince(start) / 86_400)
                sums[day] += sample.quantity.value
            }
            blackHole(sums)
        }
    } setup: {
        try BenchmarkData.generated(days: 365, resolution: .minute).quantitySamples(of: .stepCount)
    }

    // MARK: 5d. A year of minute-level heart rates → daily average, minimum and maximum

    Benchmark(
        "HeartRateYear: InMemoryHealthStore statisticsCollection, daily discreteAverage, discreteMin, discreteMax of 525,600 samples",
        configuration: statisticsConfiguration
    ) { (benchmark: Benchmark, store: InMemoryHealthStore) in
        for _ in benchmark.scaledIterations {
            let collection = try await store.statisticsCollection(
                of: .heartRate, options: [.discreteAverage, .discreteMin, .discreteMax], anchorDate: start,
                intervalComponents: DateComponents(day: 1), calendar: utc)
            precondition(collection.statistics().count == 365, "expected a year of days")
            blackHole(collection)
        }
    } setup: {
        try await filledStore(heartRates(525_600))
    }

    Benchmark(
        "HeartRateYear: baseline — one pass over a sorted array, time-weighted average, min and max per day",
        configuration: statisticsConfiguration
    ) { (benchmark: Benchmark, rates: [HealthQuantitySample]) in
        for _ in benchmark.scaledIterations {
            // Each reading holds until the next one or the end of its day, as the engine weighs instantaneous
            // readings; every value is in count/min, turned into the canonical count/s by hand.
            var weighted = [Double](repeating: 0, count: 366)
            var held = [Double](repeating: 0, count: 366)
            var minimum = [Double](repeating: .infinity, count: 366)
            var maximum = [Double](repeating: -.infinity, count: 366)
            for (index, sample) in rates.enumerated() {
                let offset = sample.startDate.timeIntervalSince(start)
                let day = Int(offset / 86_400)
                let dayEnd = Double(day + 1) * 86_400
                let next = index + 1 < rates.count ? rates[index + 1].startDate.timeIntervalSince(start) : dayEnd
                let value = sample.quantity.value / 60
                let hold = min(next, dayEnd) - offset
                weighted[day] += hold * value
                held[day] += hold
                minimum[day] = min(minimum[day], value)
                maximum[day] = max(maximum[day], value)
            }
            blackHole((weighted, held, minimum, maximum))
        }
    } setup: {
        heartRates(525_600).compactMap { sample -> HealthQuantitySample? in
            if case .quantity(let quantity) = sample { return quantity }
            return nil
        }
    }

    // MARK: 5g. Reopen the demo's year

    // Gated in CI (the store's row only): opening allocates per record and per type, not per sample.
    let reopenConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], warmupIterations: 1,
        maxDuration: mode.maxDuration(.seconds(20)), maxIterations: mode.maxIterations(20, quick: 3),
        thresholds: AllocationGate.thresholds)

    Benchmark("Reopen: FileHealthStore of a year (131,047 samples, one snapshot)", configuration: reopenConfiguration) {
        (benchmark: Benchmark, year: StoredYear) in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let store = try FileHealthStore(directory: year.directory, configuration: BenchmarkData.app)
            benchmark.stopMeasurement()
            precondition(store.recovery.snapshotGeneration != nil, "the year was not read from a snapshot")
            store.close()
        }
    } setup: {
        try StoredYear()
    } teardown: {
        StoredYear.removeAll()
    }

    Benchmark(
        "Reopen: baseline — the same snapshot's bytes in one read (open, fstat, read)",
        configuration: reopenConfiguration
    ) { (benchmark: Benchmark, year: StoredYear) in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            blackHole(try readWhole(year.snapshot))
            benchmark.stopMeasurement()
        }
    } setup: {
        try StoredYear()
    } teardown: {
        StoredYear.removeAll()
    }
}

/// The demo's year (`healthflow demo`: 365 days from seed 2026, every sample ingested as one change, then a
/// snapshot), stored in a scratch folder for the reopening rows.
private struct StoredYear: Sendable {
    let folder: ScratchFolder
    let directory: URL
    /// The snapshot file.
    let snapshot: URL

    private static let prefix = "reopen-year"

    init() throws {
        let data = try HealthDataGenerator(configuration: GeneratorConfiguration(days: 365, seed: 2026)).generate()
        folder = try ScratchFolder(prefix: Self.prefix)
        directory = folder.url.appendingPathComponent("db")
        let store = try FileHealthStore(directory: directory, configuration: BenchmarkData.app)
        try store.ingest(data.allSamples())
        try store.snapshot()
        store.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        guard let name = names.first(where: { $0.hasPrefix("snapshot-") }) else { throw CocoaError(.fileNoSuchFile) }
        snapshot = directory.appendingPathComponent(name)
    }

    /// Removes every folder this benchmark made (a teardown has no access to its setup's value).
    static func removeAll() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("healthflow-bench-\(prefix)-") {
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}

/// `url`'s bytes, read as the store reads a snapshot: open, `fstat`, one `read` of the whole size.
private func readWhole(_ url: URL) throws -> [UInt8] {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw CocoaError(.fileReadUnknown) }
    let size = Int(info.st_size)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
        initialized = 0
        while initialized < size, let base = buffer.baseAddress {
            let count = read(descriptor, base + initialized, size - initialized)
            if count <= 0 {
                failed = count < 0
                return
            }
            initialized += count
        }
    }
    guard !failed, bytes.count == size else { throw CocoaError(.fileReadUnknown) }
    return bytes
}
