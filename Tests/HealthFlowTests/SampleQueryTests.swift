import FlowKit
import Foundation
import HealthFlow
import TestScale
import Testing

struct SampleQueryTests {
    static let phone = HealthSource(bundleIdentifier: "com.apple.health.phone", name: "iPhone")
    static let tag = MetadataKey(rawValue: "com.example.tag")

    /// A store of a few thousand random samples (some deleted again) and the same data kept as a plain list.
    struct World {
        let store: InMemoryHealthStore
        /// Live samples in the order they entered the store.
        let live: [Record]
        let allUUIDs: [UUID]
        let base: Date
    }

    static func world(seed: UInt64, count: Int = 3000) async throws -> World {
        var random = SeededGenerator(seed: seed)
        let store = StoreFixture.store(policy: .deny(read: [.heartRate]))
        try await store.requestAuthorization(toShare: [.stepCount, .heartRate], read: [.stepCount, .heartRate])
        let base = Fixture.noon
        let sources = [Fixture.source, Fixture.watch, phone]
        var samples: [HealthSample] = []
        for index in 0..<count {
            let type: HealthObjectType = Int.random(in: 0..<4, using: &random) == 0 ? .heartRate : .stepCount
            // Mostly increasing start dates with stretches of out-of-order ones, on a minute grid (ties happen).
            let trend = Double(index) * 200
            let jitter = Double(Int.random(in: -3_000...3_000, using: &random)) * 60
            let start = base + (index % 7 == 0 ? jitter + trend : trend)
            let duration: TimeInterval
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3: duration = 0
            case 9: duration = Double(Int.random(in: 1...600, using: &random)) * 60
            default: duration = Double(Int.random(in: 1...120, using: &random)) * 60
            }
            var metadata: [MetadataKey: MetadataValue] = [:]
            if Int.random(in: 0..<5, using: &random) == 0 { metadata[.wasUserEntered] = true }
            if Int.random(in: 0..<2, using: &random) == 0 {
                metadata[tag] = .string(["a", "b", "c"].randomElement(using: &random) ?? "a")
            }
            let unit = type == .heartRate ? "count/min" : "count"
            samples.append(
                try StoreFixture.sample(
                    type, Double(Int.random(in: 1...200, using: &random)), unit: unit, start: start, duration: duration,
                    source: sources.randomElement(using: &random) ?? Fixture.source, metadata: metadata,
                    uuid: UUID.random(using: &random)))
        }
        // Enter in chunks, in order; then delete some of the app's own.
        var position = 0
        while position < samples.count {
            let size = Int.random(in: 1...200, using: &random)
            try store.ingest(Array(samples[position..<min(position + size, samples.count)]))
            position += size
        }
        let doomed = samples.filter {
            $0.source == Fixture.source && Int.random(in: 0..<10, using: &random) == 0
        }
        try await store.delete(doomed)
        let doomedUUIDs = Set(doomed.map(\.uuid))
        return World(
            store: store, live: samples.filter { !doomedUUIDs.contains($0.uuid) }.map(Record.init),
            allUUIDs: samples.map(\.uuid),
            base: base)
    }

    // MARK: Reference implementation

    /// A sample's fields, unpacked once (the reference implementation reads them thousands of times).
    struct Record {
        let sample: HealthSample
        let uuid: UUID
        let type: String
        let startDate: Date
        let endDate: Date
        let source: String
        let metadata: [MetadataKey: MetadataValue]

        init(_ sample: HealthSample) {
            self.sample = sample
            uuid = sample.uuid
            type = sample.type.identifier
            startDate = sample.startDate
            endDate = sample.endDate
            source = sample.source.bundleIdentifier
            metadata = sample.metadata
        }
    }

    /// HealthKit's predicate rules, written out independently of `SamplePredicate.evaluate`.
    static func reference(_ predicate: SamplePredicate, _ sample: Record) -> Bool {
        switch predicate {
        case .date(let start, let end, let options):
            if let start {
                if options.contains(.strictStartDate) {
                    if sample.startDate < start { return false }
                } else if sample.endDate < start {
                    return false
                }
            }
            if let end {
                if !(sample.startDate < end) { return false }
                if options.contains(.strictEndDate), sample.endDate > end { return false }
            }
            return true
        case .sources(let ids): return ids.contains(sample.source)
        case .metadata(let key, let value): return sample.metadata[key] == value
        case .uuids(let uuids): return uuids.contains(sample.uuid)
        case .and(let all): return all.allSatisfy { reference($0, sample) }
        case .or(let any): return any.contains { reference($0, sample) }
        case .not(let inner): return !reference(inner, sample)
        }
    }

    static func bruteForce(
        _ world: World, type: HealthObjectType, _ predicate: SamplePredicate?,
        _ sort: [SampleSortDescriptor], _ limit: Int
    ) -> [HealthSample] {
        let own = Fixture.source.bundleIdentifier
        let visible = world.live.indices.filter { offset in
            let record = world.live[offset]
            return record.type == type.identifier && (predicate.map { reference($0, record) } ?? true)
                && (record.type != "heartRate" || record.source == own)
        }
        let starts = visible.map { world.live[$0].startDate }
        let ends = visible.map { world.live[$0].endDate }
        let sorted = visible.indices.sorted { left, right in
            for descriptor in sort {
                let (a, b) = descriptor.key == .startDate ? (starts[left], starts[right]) : (ends[left], ends[right])
                if a != b { return descriptor.ascending ? a < b : a > b }
            }
            if starts[left] != starts[right] { return starts[left] < starts[right] }
            return left < right
        }.map { world.live[visible[$0]].sample }
        return limit > 0 ? Array(sorted.prefix(limit)) : sorted
    }

    static func randomPredicate(_ world: World, depth: Int, using random: inout SeededGenerator) -> SamplePredicate {
        let span = Double(world.live.count) * 200
        func date() -> Date? {
            Int.random(in: 0..<6, using: &random) == 0
                ? nil : world.base + Double(Int.random(in: -500...Int(span / 60) + 500, using: &random)) * 60
        }
        switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &random) {
        case 0, 1, 2:
            let start = date()
            let width = Double(Int.random(in: 0...3_000, using: &random)) * 60
            let end = Int.random(in: 0..<6, using: &random) == 0 ? nil : (start ?? world.base) + width
            return .samples(
                withStart: start, end: end,
                options: SamplePredicate.DateOptions(rawValue: Int.random(in: 0...3, using: &random)))
        case 3:
            let all = [Fixture.source, Fixture.watch, phone].map(\.bundleIdentifier)
            return .sources(Set(all.filter { _ in Bool.random(using: &random) }))
        case 4:
            return Bool.random(using: &random)
                ? .metadata(.wasUserEntered, equals: true)
                : .metadata(tag, equals: .string(["a", "b", "c", "d"].randomElement(using: &random) ?? "a"))
        case 5:
            let picked = (0..<Int.random(in: 0...40, using: &random)).compactMap { _ in
                world.allUUIDs.randomElement(using: &random)
            }
            return .uuids(Set(picked + [UUID()]))
        case 6:
            return randomPredicate(world, depth: depth - 1, using: &random)
                && randomPredicate(world, depth: depth - 1, using: &random)
        case 7:
            return randomPredicate(world, depth: depth - 1, using: &random)
                || randomPredicate(world, depth: depth - 1, using: &random)
        default:
            return !randomPredicate(world, depth: depth - 1, using: &random)
        }
    }

    static let sorts: [[SampleSortDescriptor]] = [
        [], [.startDate()], [.startDate(ascending: false)], [.endDate()], [.endDate(ascending: false)],
        [.endDate(ascending: false), .startDate()], [.startDate(ascending: false), .endDate()],
        [.startDate(), .endDate(ascending: false)],
    ]

    // MARK: Tests

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
    func matchesBruteForceOnRandomData(seed: UInt64) async throws {
        let world = try await Self.world(seed: seed)
        var random = SeededGenerator(seed: seed ^ 0xABCD)
        for round in 0..<TestScale.count(250, atLeast: 25) {
            let type: HealthObjectType = round % 4 == 0 ? .heartRate : .stepCount
            let predicate = round % 10 == 0 ? nil : Self.randomPredicate(world, depth: 2, using: &random)
            let sort = Self.sorts.randomElement(using: &random) ?? []
            let limit = [0, 0, 1, 3, 10, 100, 1000].randomElement(using: &random) ?? 0
            let expected = Self.bruteForce(world, type: type, predicate, sort, limit)
            let actual = try await world.store.samples(of: type, matching: predicate, sortedBy: sort, limit: limit)
            #expect(
                actual.map(\.uuid) == expected.map(\.uuid),
                "seed \(seed) round \(round): \(String(describing: predicate)) \(sort) \(limit)")
            if actual != expected { return }
        }
    }

    @Test func dateRangeBoundariesFollowHealthKit() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let t = Fixture.noon
        // before: ends exactly at the range start; at: instant at start; straddle: over the start;
        // inside; endsAtEnd: ends exactly at the range end; atEnd: instant at the end; after.
        let before = try StoreFixture.sample(start: t - 600, duration: 600)
        let at = try StoreFixture.sample(start: t)
        let straddle = try StoreFixture.sample(start: t - 300, duration: 600)
        let inside = try StoreFixture.sample(start: t + 60, duration: 60)
        let endsAtEnd = try StoreFixture.sample(start: t + 3000, duration: 600)
        let overEnd = try StoreFixture.sample(start: t + 3300, duration: 600)
        let atEnd = try StoreFixture.sample(start: t + 3600)
        try await store.save([before, at, straddle, inside, endsAtEnd, overEnd, atEnd])
        func uuids(_ options: SamplePredicate.DateOptions) async throws -> Set<UUID> {
            Set(
                try await store.samples(
                    of: .stepCount, matching: .samples(withStart: t, end: t + 3600, options: options)
                ).map(\.uuid))
        }
        #expect(try await uuids([]) == Set([before, at, straddle, inside, endsAtEnd, overEnd].map(\.uuid)))
        #expect(try await uuids(.strictStartDate) == Set([at, inside, endsAtEnd, overEnd].map(\.uuid)))
        #expect(try await uuids(.strictEndDate) == Set([before, at, straddle, inside, endsAtEnd].map(\.uuid)))
        #expect(try await uuids([.strictStartDate, .strictEndDate]) == Set([at, inside, endsAtEnd].map(\.uuid)))
    }

    @Test func limitAndSortPickTheNewest() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.bodyMass])
        let weights = try (0..<10).map {
            try StoreFixture.sample(.bodyMass, 70 + Double($0), unit: "kg", start: Fixture.noon + Double($0) * 86_400)
        }
        try await store.save(weights.shuffled())
        let latest = try await store.samples(of: .bodyMass, sortedBy: [.endDate(ascending: false)], limit: 1)
        #expect(latest == [weights[9]])
        let oldestThree = try await store.samples(of: .bodyMass, limit: 3)
        #expect(oldestThree == Array(weights.prefix(3)))
    }

    @Test func queryingATypeWithoutSamplesIsAnError() async {
        let store = StoreFixture.store()
        let result = await callbackSamples(store) { HealthSampleQuery(sampleType: .bloodType, resultsHandler: $0) }
        #expect(result == .failure(.unsupportedQueryType(.bloodType, query: "HealthSampleQuery(bloodType)")))
    }

    @Test func aNegativeLimitIsAnError() async {
        let store = StoreFixture.store()
        let result = await callbackSamples(store) {
            HealthSampleQuery(sampleType: .stepCount, limit: -1, resultsHandler: $0)
        }
        #expect(result == .failure(.invalidLimit(-1)))
    }

    @Test func queriesFailWhenHealthDataIsUnavailable() async {
        let store = StoreFixture.store(available: false)
        let result = await callbackSamples(store) { HealthSampleQuery(sampleType: .stepCount, resultsHandler: $0) }
        #expect(result == .failure(.healthDataUnavailable))
    }

    @Test func nonFiniteDatesInAPredicateMatchNothing() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        try await store.save(try StoreFixture.sample())
        let nan = Date(timeIntervalSinceReferenceDate: .nan)
        #expect(try await store.samples(of: .stepCount, matching: .samples(withStart: nan, end: nil)).isEmpty)
        #expect(try await store.samples(of: .stepCount, matching: .samples(withStart: nil, end: nan)).isEmpty)
        let infinite = Date(timeIntervalSinceReferenceDate: .infinity)
        #expect(try await store.samples(of: .stepCount, matching: .samples(withStart: nil, end: infinite)).count == 1)
    }
}
