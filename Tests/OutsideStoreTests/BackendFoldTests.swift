import FlowKit
import Foundation
import HealthFlow
import Testing

/// A backed store's statistics and sample queries fold their backend's samples one at a time
/// (``HealthStoreBackend/reduceSamples(of:matching:into:_:)``) rather than asking for them all at once, so a
/// backend that reads in blocks holds one block, not every match, and a query with a limit holds about twice its
/// limit; they answer as the in-memory store does, and a fold stopped by damage makes them answer as if nothing
/// matched, never from part of the samples.
struct BackendFoldTests {
    static let app = OutsideStoreConformanceTests.app

    /// How often the store asked for a type's samples at once, and how often it folded them.
    final class Calls: Sendable {
        let counts = LockedState((gathered: 0, folded: 0))
    }

    /// ``DictionaryBackend``, counting its reads, whose folds stop as damaged after `damagedAfter` samples.
    struct VisitingBackend: HealthStoreBackend {
        var inner = DictionaryBackend()
        let calls: Calls
        var damagedAfter: Int?

        var lastSequence: UInt64 { inner.lastSequence }
        func sample(withUUID uuid: UUID) -> StoredHealthSample? { inner.sample(withUUID: uuid) }
        func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] {
            calls.counts.withLock { $0.gathered += 1 }
            return inner.samples(of: type, matching: predicate)
        }
        func reduceSamples<Partial: Sendable>(
            of type: HealthObjectType, matching predicate: SamplePredicate?, into result: inout Partial,
            _ add: @Sendable (inout Partial, HealthSample, UInt64) -> Void
        ) -> Bool {
            calls.counts.withLock { $0.folded += 1 }
            for (count, sample) in inner.samples(of: type, matching: predicate).enumerated() {
                if count == damagedAfter { return false }
                add(&result, sample, UInt64(count))
            }
            return true
        }
        func changes(of type: HealthObjectType, after sequence: UInt64, limit: Int) -> [HealthStoreChange] {
            inner.changes(of: type, after: sequence, limit: limit)
        }
        mutating func insert(_ objects: [StoredHealthSample]) throws { try inner.insert(objects) }
        mutating func delete(_ objects: [HealthSample]) throws { try inner.delete(objects) }
    }

    static let origin = Date(timeIntervalSinceReferenceDate: 700_000_000)
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        return calendar
    }()

    /// 600 step counts of 10 minutes each, over about four days, from two sources.
    static func steps() throws -> [HealthSample] {
        let unit = try HealthUnit(from: "count")
        let sources = [
            HealthSource(bundleIdentifier: app.bundleIdentifier, name: app.name),
            HealthSource(bundleIdentifier: "com.example.watch", name: "Watch"),
        ]
        return try (0..<600).map { index in
            let start = origin + Double(index) * 600
            return .quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: HealthQuantity(unit: unit, doubleValue: Double(index % 97)),
                    start: start, end: start + 600, source: sources[index % 2]))
        }
    }

    /// `store` holding ``steps()`` — the app's own saved, the watch's ingested — and allowed to read step counts.
    static func filled(
        _ store: some HealthStore, ingest: ([HealthSample]) throws -> Void
    ) async throws {
        try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        let samples = try steps()
        try await store.save(samples.filter { $0.source.bundleIdentifier == app.bundleIdentifier })
        try ingest(samples.filter { $0.source.bundleIdentifier != app.bundleIdentifier })
    }

    static func filled(_ store: BackedHealthStore<VisitingBackend>) async throws {
        try await filled(store, ingest: store.ingest)
    }

    /// A sum split by source over the middle two days, and daily sums over everything.
    static func answers(
        of store: some HealthStore
    ) async throws -> (statistics: HealthStatistics?, days: [HealthStatistics]) {
        let statistics = try await store.statistics(
            of: .stepCount, matching: .samples(withStart: origin + 86_400, end: origin + 3 * 86_400),
            options: [.cumulativeSum, .separateBySource])
        let days = try await store.statisticsCollection(
            of: .stepCount, matching: nil, options: .cumulativeSum, anchorDate: origin,
            intervalComponents: DateComponents(day: 1), calendar: calendar)
        return (statistics, days.statistics())
    }

    @Test func statisticsFoldTheBackendsSamplesAndAnswerAsTheInMemoryStore() async throws {
        let calls = Calls()
        let backed = BackedHealthStore(backend: VisitingBackend(calls: calls), configuration: Self.app)
        let reference = InMemoryHealthStore(configuration: Self.app)
        try await Self.filled(backed)
        try await Self.filled(reference, ingest: reference.ingest)
        let before = calls.counts.withLock { $0 }

        let expected = try await Self.answers(of: reference)
        let actual = try await Self.answers(of: backed)

        #expect(expected.statistics != nil)
        #expect(expected.days.count == 5)
        #expect(actual.statistics == expected.statistics)
        #expect(actual.days == expected.days)
        let after = calls.counts.withLock { $0 }
        #expect(after.gathered == before.gathered)
        #expect(after.folded == before.folded + 2)
    }

    @Test func aFoldStoppedByDamageGivesNoStatisticsRatherThanPartOfThem() async throws {
        // The two-day sum folds 288 samples, the daily sums 600.
        for damagedAfter in [0, 1, 150, 287] {
            let backend = VisitingBackend(calls: Calls(), damagedAfter: damagedAfter)
            let store = BackedHealthStore(backend: backend, configuration: Self.app)
            try await Self.filled(store)
            let answers = try await Self.answers(of: store)
            #expect(answers.statistics == nil, "damaged after \(damagedAfter)")
            #expect(answers.days.isEmpty, "damaged after \(damagedAfter)")
        }
        // The same store undamaged (the fold would stop after the last sample) answers.
        let store = BackedHealthStore(
            backend: VisitingBackend(calls: Calls(), damagedAfter: 600), configuration: Self.app)
        try await Self.filled(store)
        let answers = try await Self.answers(of: store)
        #expect(answers.statistics != nil)
        #expect(answers.days.count == 5)
    }

    @Test func sampleQueriesFoldTheBackendsSamplesAndAnswerAsTheInMemoryStore() async throws {
        let calls = Calls()
        let backed = BackedHealthStore(backend: VisitingBackend(calls: calls), configuration: Self.app)
        let reference = InMemoryHealthStore(configuration: Self.app)
        // 300 heart rates on 20 start dates and 4 durations, saved out of date order: many ties that only the
        // order of saving settles.
        let unit = try HealthUnit(from: "count/min")
        let source = HealthSource(bundleIdentifier: Self.app.bundleIdentifier, name: Self.app.name)
        let samples = try (0..<300).map { index in
            let start = Self.origin + Double(index * 7 % 20) * 60
            return HealthSample.quantity(
                try HealthQuantitySample(
                    type: .heartRate, quantity: HealthQuantity(unit: unit, doubleValue: Double(50 + index % 70)),
                    start: start, end: start + Double(index * 3 % 4) * 30, source: source))
        }
        for store in [backed, reference] as [any HealthStore] {
            try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
            for batch in stride(from: 0, to: samples.count, by: 50) {
                try await store.save(Array(samples[batch..<(batch + 50)]))
            }
        }
        let before = calls.counts.withLock { $0 }
        let orders: [[SampleSortDescriptor]] = [
            [], [.startDate(ascending: false)], [.endDate(ascending: false)],
            [.endDate(), .startDate(ascending: false)],
        ]
        let window = SamplePredicate.samples(withStart: Self.origin + 5 * 60, end: Self.origin + 15 * 60)
        var queries = 0
        for predicate in [nil, window] {
            for descriptors in orders {
                for limit in [0, 1, 2, 7, 63, 64, 65, 200, 299, 400] {
                    let expected = try await reference.samples(
                        of: .heartRate, matching: predicate, sortedBy: descriptors, limit: limit)
                    let actual = try await backed.samples(
                        of: .heartRate, matching: predicate, sortedBy: descriptors, limit: limit)
                    #expect(
                        actual.map(\.uuid) == expected.map(\.uuid),
                        "\(descriptors) limit \(limit) \(predicate == nil ? "all" : "window")")
                    #expect(expected.count == (limit == 0 ? expected.count : min(limit, expected.count)))
                    queries += 1
                }
            }
        }
        let after = calls.counts.withLock { $0 }
        #expect(after.gathered == before.gathered)
        #expect(after.folded == before.folded + queries)
    }

    @Test func aSampleQueryWhoseFoldStopsAtDamageFindsNothing() async throws {
        let store = BackedHealthStore(
            backend: VisitingBackend(calls: Calls(), damagedAfter: 10), configuration: Self.app)
        try await Self.filled(store)
        #expect(try await store.samples(of: .stepCount, sortedBy: [.endDate(ascending: false)], limit: 1).isEmpty)
        #expect(try await store.samples(of: .stepCount).isEmpty)
    }
}
