import FlowKit
import Foundation
import HealthFlow
import Testing

/// A backed store reads a type's changes from its backend in chunks: an anchored query over more changes than a
/// chunk answers exactly as the in-memory store does, and the backend never returns a chunk larger than the one
/// asked for, so the query's memory follows its limit.
struct AnchoredChunkTests {
    static let app = OutsideStoreConformanceTests.app

    /// The largest chunk the store asked its backend for, and the largest it got.
    final class Asked: Sendable {
        let largest = LockedState((asked: 0, returned: 0))
    }

    /// ``DictionaryBackend``, recording the chunks it is asked for.
    struct RecordingBackend: HealthStoreBackend {
        var inner = DictionaryBackend()
        let asked: Asked

        var lastSequence: UInt64 { inner.lastSequence }
        func sample(withUUID uuid: UUID) -> StoredHealthSample? { inner.sample(withUUID: uuid) }
        func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] {
            inner.samples(of: type, matching: predicate)
        }
        func changes(of type: HealthObjectType, after sequence: UInt64, limit: Int) -> [HealthStoreChange] {
            let changes = inner.changes(of: type, after: sequence, limit: limit)
            asked.largest.withLock { $0 = (max($0.asked, limit), max($0.returned, changes.count)) }
            return changes
        }
        mutating func insert(_ objects: [StoredHealthSample]) throws { try inner.insert(objects) }
        mutating func delete(_ objects: [HealthSample]) throws { try inner.delete(objects) }
    }

    @Test func anchoredQueriesOverSeveralChunksOfChangesAnswerAsTheInMemoryStore() async throws {
        let asked = Asked()
        let backed = BackedHealthStore(backend: RecordingBackend(asked: asked), configuration: Self.app)
        let reference = InMemoryHealthStore(configuration: Self.app)
        let unit = try HealthUnit(from: "count")
        let origin = Date(timeIntervalSinceReferenceDate: 700_000_000)
        // 10,000 steps (about 2.4 chunks of 4,096), then every seventh deleted: 11,429 changes.
        let samples = try (0..<10_000).map { index in
            HealthSample.quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: HealthQuantity(unit: unit, doubleValue: Double(index % 500)),
                    start: origin + Double(index) * 60, end: origin + Double(index) * 60 + 60,
                    source: HealthSource(bundleIdentifier: Self.app.bundleIdentifier, name: Self.app.name)))
        }
        let deleted = samples.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
        for store in [backed, reference] as [any HealthStore] {
            try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
            for start in stride(from: 0, to: samples.count, by: 1_000) {
                try await store.save(Array(samples[start..<(start + 1_000)]))
            }
            try await store.delete(deleted)
        }

        func pages(
            of store: some HealthStore, matching predicate: SamplePredicate?, limit: Int
        ) async throws -> [HealthAnchoredChanges] {
            var pages: [HealthAnchoredChanges] = []
            var anchor: HealthQueryAnchor?
            repeat {
                let page = try await store.changes(of: .stepCount, matching: predicate, since: anchor, limit: limit)
                pages.append(page)
                anchor = page.newAnchor
            } while !(pages.last!.samples.isEmpty && pages.last!.deletedObjects.isEmpty)
            return pages
        }
        let late = SamplePredicate.date(start: origin + 7_000 * 60, end: nil, options: [])
        let pairs: [(SamplePredicate?, Int)] = [(nil, 0), (nil, 3_000), (nil, 5_000), (late, 700), (late, 0)]
        for (predicate, limit) in pairs {
            let expected = try await pages(of: reference, matching: predicate, limit: limit)
            let actual = try await pages(of: backed, matching: predicate, limit: limit)
            // Compared whole; the message sums each page up (the pages themselves run to megabytes).
            let summary = { (pages: [HealthAnchoredChanges]) in
                pages.map { "\($0.samples.count)+\($0.deletedObjects.count)→\($0.newAnchor)" }
            }
            let same = actual == expected
            #expect(same, "limit \(limit), \(String(describing: predicate)): \(summary(actual)) ≠ \(summary(expected))")
            #expect(expected.count > 1)
        }
        let largest = asked.largest.withLock { $0 }
        #expect(largest.asked == 4_096)
        #expect(largest.returned == 4_096)
    }
}
