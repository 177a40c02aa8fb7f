import FlowKit
import Foundation
import HealthFlow
import Testing

struct AnchoredObjectQueryTests {
    /// One change as the reference model numbers it: every stored object and every deletion takes the next
    /// number, as in the store.
    enum Event: Equatable {
        case added(UUID)
        case deleted(UUID)
    }

    /// What a page should hold, computed from the model: the changes after `anchor` in order, additions only
    /// while still live, at most `limit` of them; and the model anchor to continue from.
    static func expectedPage(_ log: [(sequence: Int, event: Event)], live: Set<UUID>, after anchor: Int, limit: Int)
        -> (events: [Event], anchor: Int)
    {
        var events: [Event] = []
        var last = anchor
        for (sequence, event) in log where sequence > anchor {
            if limit > 0, events.count == limit { return (events, last) }
            last = sequence
            if case .added(let uuid) = event, !live.contains(uuid) { continue }
            events.append(event)
        }
        return (events, log.last.map { max($0.sequence, anchor) } ?? anchor)
    }

    @Test(arguments: [7, 11, 99, 1234] as [UInt64])
    func pagesThroughInterleavedSavesAndDeletesWithoutRepeatsOrGaps(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        var log: [(sequence: Int, event: Event)] = []
        var live: [UUID: HealthSample] = [:]
        var liveOrder: [UUID] = []
        var mirror: [UUID: HealthSample] = [:]
        var modelAnchor = 0
        var anchor: HealthQueryAnchor?
        var reportedAdditions = Set<UUID>()
        var reportedDeletions = Set<UUID>()

        for step in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let batch = try (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    try StoreFixture.sample(
                        start: Fixture.noon + Double(Int.random(in: 0...10_000, using: &random)),
                        source: Bool.random(using: &random) ? Fixture.source : Fixture.watch,
                        uuid: UUID.random(using: &random))
                }
                let own = batch.filter { $0.source == Fixture.source }
                let others = batch.filter { $0.source != Fixture.source }
                if !own.isEmpty { try await store.save(own) }
                if !others.isEmpty { try store.ingest(others) }
                for sample in own + others {
                    log.append((log.count + 1, .added(sample.uuid)))
                    live[sample.uuid] = sample
                    liveOrder.append(sample.uuid)
                }
            case 5..<8:
                let mine = liveOrder.filter { live[$0]?.source == Fixture.source }
                guard !mine.isEmpty else { continue }
                let doomed = Array(
                    Set(
                        (0..<Int.random(in: 1...3, using: &random)).compactMap { _ in
                            mine.randomElement(using: &random)
                        })
                ).sorted { $0.uuidString < $1.uuidString }.compactMap { live[$0] }
                try await store.delete(doomed)
                for sample in doomed {
                    log.append((log.count + 1, .deleted(sample.uuid)))
                    live[sample.uuid] = nil
                }
                liveOrder.removeAll { live[$0] == nil }
            default:
                let limit = Int.random(in: 1...7, using: &random)
                let page = try await store.changes(of: .stepCount, since: anchor, limit: limit)
                let expected = Self.expectedPage(log, live: Set(live.keys), after: modelAnchor, limit: limit)
                let actual =
                    page.samples.map { Event.added($0.uuid) } + page.deletedObjects.map { Event.deleted($0.uuid) }
                // A page lists samples then tombstones; compare as sets of events, and the counts.
                #expect(
                    Set(actual.map(String.init(describing:))) == Set(expected.events.map(String.init(describing:))),
                    "seed \(seed) step \(step)")
                #expect(actual.count == expected.events.count && actual.count <= limit)
                if let anchor { #expect(anchor <= page.newAnchor) }
                if !actual.isEmpty, let anchor { #expect(anchor < page.newAnchor) }
                for sample in page.samples {
                    #expect(reportedAdditions.insert(sample.uuid).inserted, "addition reported twice")
                    mirror[sample.uuid] = sample
                }
                for tombstone in page.deletedObjects {
                    #expect(reportedDeletions.insert(tombstone.uuid).inserted, "deletion reported twice")
                    mirror[tombstone.uuid] = nil
                }
                anchor = page.newAnchor
                modelAnchor = expected.anchor
            }
        }
        // Catch up and compare the mirror with the store.
        while true {
            let page = try await store.changes(of: .stepCount, since: anchor, limit: 5)
            for sample in page.samples { mirror[sample.uuid] = sample }
            for tombstone in page.deletedObjects { mirror[tombstone.uuid] = nil }
            anchor = page.newAnchor
            if page.samples.isEmpty && page.deletedObjects.isEmpty { break }
        }
        #expect(mirror == live)
        #expect(Set(try await store.samples(of: .stepCount).map(\.uuid)) == Set(live.keys))
    }

    @Test func theLimitCountsSamplesPlusDeletions() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let a = try StoreFixture.sample(start: Fixture.noon)
        let b = try StoreFixture.sample(start: Fixture.noon + 1)
        let c = try StoreFixture.sample(start: Fixture.noon + 2)
        try await store.save([a, b])
        let start = try await store.changes(of: .stepCount, since: nil)
        try await store.delete(a)  // change 1: tombstone a
        try await store.save(c)  // change 2: c
        try await store.delete(b)  // change 3: tombstone b

        let first = try await store.changes(of: .stepCount, since: start.newAnchor, limit: 2)
        #expect(first.deletedObjects.map(\.uuid) == [a.uuid])
        #expect(first.samples == [c])
        let second = try await store.changes(of: .stepCount, since: first.newAnchor, limit: 2)
        #expect(second.samples.isEmpty)
        #expect(second.deletedObjects.map(\.uuid) == [b.uuid])
        let third = try await store.changes(of: .stepCount, since: second.newAnchor, limit: 2)
        #expect(third.samples.isEmpty && third.deletedObjects.isEmpty)
        #expect(third.newAnchor == second.newAnchor)
    }

    @Test func aNilAnchorReturnsEverythingAndSamplesDeletedMeanwhileOnlyAsTombstones() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let kept = try StoreFixture.sample()
        let gone = try StoreFixture.sample()
        try await store.save([kept, gone])
        try await store.delete(gone)
        let changes = try await store.changes(of: .stepCount, since: nil)
        #expect(changes.samples == [kept])
        #expect(changes.deletedObjects.map(\.uuid) == [gone.uuid])
        let otherType = try await store.changes(of: .heartRate, since: nil)
        #expect(otherType.samples.isEmpty && otherType.deletedObjects.isEmpty)
    }

    @Test func thePredicateAndReadRulesApplyToSamplesAndTombstones() async throws {
        let store = try await StoreFixture.authorizedStore(
            share: [.heartRate], read: [.heartRate], policy: .deny(read: [.heartRate]))
        let morning = try StoreFixture.sample(.heartRate, 60, unit: "count/min", start: Fixture.noon - 7200)
        let noon = try StoreFixture.sample(.heartRate, 70, unit: "count/min", start: Fixture.noon)
        let watch = try StoreFixture.sample(
            .heartRate, 80, unit: "count/min", start: Fixture.noon, source: Fixture.watch)
        try await store.save([morning, noon])
        try store.ingest([watch])
        let afternoon = SamplePredicate.samples(withStart: Fixture.noon - 60, end: nil)
        let first = try await store.changes(of: .heartRate, matching: afternoon, since: nil)
        #expect(first.samples == [noon])  // morning is outside the range; the watch's reading is unreadable
        try await store.delete([morning, noon])
        let second = try await store.changes(of: .heartRate, matching: afternoon, since: first.newAnchor)
        #expect(second.deletedObjects.map(\.uuid) == [noon.uuid])
    }

    @Test func anchorsAreCodable() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        try await store.save(try StoreFixture.sample())
        let anchor = try await store.changes(of: .stepCount, since: nil).newAnchor
        let data = try JSONEncoder().encode(anchor)
        let restored = try JSONDecoder().decode(HealthQueryAnchor.self, from: data)
        #expect(restored == anchor)
        let later = try StoreFixture.sample()
        try await store.save(later)
        #expect(try await store.changes(of: .stepCount, since: restored).samples == [later])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthQueryAnchor.self, from: Data("-1".utf8)) }
    }

    /// What the handlers of a long-running query reported.
    enum Report: Sendable, Equatable {
        case results(added: [UUID], deleted: [UUID], anchor: HealthQueryAnchor)
        case update(added: [UUID], deleted: [UUID], anchor: HealthQueryAnchor)
        case sentinel
    }

    @Test func theUpdateHandlerStreamsLaterChangesUntilStopped() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount, .heartRate])
        let first = try StoreFixture.sample()
        try await store.save(first)
        let (reports, continuation) = AsyncStream.makeStream(of: Report.self)
        let query = HealthAnchoredObjectQuery(
            type: .stepCount, anchor: nil,
            updateHandler: { _, added, deleted, anchor, _ in
                if let added, let deleted, let anchor {
                    continuation.yield(.update(added: added.map(\.uuid), deleted: deleted.map(\.uuid), anchor: anchor))
                }
            }
        ) { _, added, deleted, anchor, _ in
            if let added, let deleted, let anchor {
                continuation.yield(.results(added: added.map(\.uuid), deleted: deleted.map(\.uuid), anchor: anchor))
            }
        }
        store.execute(query)
        var iterator = reports.makeAsyncIterator()
        guard case .results(let added, let deleted, let anchor0)? = await iterator.next() else {
            Issue.record("expected the first results")
            return
        }
        #expect(added == [first.uuid] && deleted.isEmpty)

        let second = try StoreFixture.sample()
        let third = try StoreFixture.sample()
        try await store.save([second, third])
        guard case .update(let added1, let deleted1, let anchor1)? = await iterator.next() else {
            Issue.record("expected an update")
            return
        }
        #expect(added1 == [second.uuid, third.uuid] && deleted1.isEmpty && anchor0 < anchor1)

        try await store.save(try StoreFixture.sample(.heartRate, 60, unit: "count/min"))  // another type: silent
        try await store.delete(first)
        let next = await iterator.next()
        guard case .update(let added2, let deleted2, let anchor2)? = next else {
            Issue.record("expected an update, got \(String(describing: next))")
            return
        }
        #expect(added2.isEmpty && deleted2 == [first.uuid] && anchor1 < anchor2)

        store.stop(query)
        #expect(query.isStopped)
        try await store.save(try StoreFixture.sample())
        // Callbacks are delivered in order on one serial queue: once this query's results arrived, any update
        // for the save above would have arrived before them.
        _ = try await store.samples(of: .stepCount)
        continuation.yield(.sentinel)
        #expect(await iterator.next() == .sentinel)
    }
}
