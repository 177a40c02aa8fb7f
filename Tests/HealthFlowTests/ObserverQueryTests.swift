import FlowKit
import Foundation
import HealthFlow
import Testing

struct ObserverQueryTests {
    enum Note: Sendable, Equatable {
        case update
        case failure(HealthStoreError)
        case sentinel
    }

    /// Runs an observer query whose handler reports to a stream and calls its completion handler only when
    /// `acknowledge` says so.
    static func observe(
        _ store: InMemoryHealthStore, _ type: HealthObjectType, predicate: SamplePredicate? = nil,
        acknowledge: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) -> (HealthObserverQuery, AsyncStream<Note>, AsyncStream<Note>.Continuation) {
        let (notes, continuation) = AsyncStream.makeStream(of: Note.self)
        let count = EventLog<Int>()
        let query = HealthObserverQuery(sampleType: type, predicate: predicate) { _, completion, error in
            count.append(0)
            if let error = error as? HealthStoreError {
                continuation.yield(.failure(error))
            } else {
                continuation.yield(.update)
            }
            if acknowledge(count.events.count) { completion() }
        }
        store.execute(query)
        return (query, notes, continuation)
    }

    @Test func firesOnStartAndOncePerMatchingOperation() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount, .heartRate])
        let (query, notes, continuation) = Self.observe(store, .stepCount)
        defer { store.stop(query) }
        var iterator = notes.makeAsyncIterator()
        #expect(await iterator.next() == .update)  // on start
        try await store.save([try StoreFixture.sample(), try StoreFixture.sample()])
        #expect(await iterator.next() == .update)  // one per operation
        try await store.save(try StoreFixture.sample(.heartRate, 60, unit: "count/min"))  // another type
        let steps = try StoreFixture.sample()
        try await store.save(steps)
        #expect(await iterator.next() == .update)
        try await store.delete(steps)
        #expect(await iterator.next() == .update)
        _ = try await store.samples(of: .stepCount)
        continuation.yield(.sentinel)
        #expect(await iterator.next() == .sentinel)
        #expect(query.deliveredUpdates == 4)
        #expect(query.unacknowledgedUpdates == 0)
    }

    @Test func thePredicateAndReadRulesFilterNotifications() async throws {
        let store = try await StoreFixture.authorizedStore(
            share: [.heartRate], read: [.heartRate], policy: .deny(read: [.heartRate]))
        let (query, notes, continuation) = Self.observe(store, .heartRate)
        defer { store.stop(query) }
        var iterator = notes.makeAsyncIterator()
        #expect(await iterator.next() == .update)
        // Unreadable: another source, and reading heart rate was denied.
        try store.ingest([try StoreFixture.sample(.heartRate, 60, unit: "count/min", source: Fixture.watch)])
        try await store.save(try StoreFixture.sample(.heartRate, 61, unit: "count/min"))  // own: visible
        #expect(await iterator.next() == .update)

        let (watchQuery, watchNotes, watchContinuation) = Self.observe(
            store, .heartRate, predicate: .sources([Fixture.watch.bundleIdentifier]))
        defer { store.stop(watchQuery) }
        var watchIterator = watchNotes.makeAsyncIterator()
        #expect(await watchIterator.next() == .update)
        try await store.save(try StoreFixture.sample(.heartRate, 62, unit: "count/min"))  // not the watch
        _ = try await store.samples(of: .heartRate)
        watchContinuation.yield(.sentinel)
        #expect(await watchIterator.next() == .sentinel)
        continuation.yield(.sentinel)
        #expect(await iterator.next() == .update)  // the first observer saw the last save
        #expect(await iterator.next() == .sentinel)
    }

    @Test func missingCompletionCallsAreRecorded() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let (query, notes, _) = Self.observe(store, .stepCount) { delivery in delivery % 2 == 1 }
        defer { store.stop(query) }
        var iterator = notes.makeAsyncIterator()
        _ = await iterator.next()
        for _ in 0..<3 {
            try await store.save(try StoreFixture.sample())
            _ = await iterator.next()
        }
        #expect(query.deliveredUpdates == 4)
        #expect(query.unacknowledgedUpdates == 2)  // deliveries 2 and 4 were never acknowledged
    }

    @Test func callingTheCompletionHandlerTwiceCountsOnce() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let (promise, resolver) = Promise<Void>.pending()
        let query = HealthObserverQuery(sampleType: .stepCount) { _, completion, _ in
            completion()
            completion()
            resolver.fulfill()
        }
        store.execute(query)
        defer { store.stop(query) }
        try await promise.value
        #expect(query.deliveredUpdates == 1)
        #expect(query.unacknowledgedUpdates == 0)
    }

    @Test func stoppingEndsNotifications() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let (query, notes, continuation) = Self.observe(store, .stepCount)
        var iterator = notes.makeAsyncIterator()
        _ = await iterator.next()
        store.stop(query)
        try await store.save(try StoreFixture.sample())
        _ = try await store.samples(of: .stepCount)
        continuation.yield(.sentinel)
        #expect(await iterator.next() == .sentinel)
        #expect(query.isStopped)
    }

    @Test func aTypeWithoutSamplesReportsAnError() async {
        let store = StoreFixture.store()
        let (_, notes, _) = Self.observe(store, .biologicalSex)
        var iterator = notes.makeAsyncIterator()
        #expect(
            await iterator.next()
                == .failure(
                    .unsupportedQueryType(.biologicalSex, query: "HealthObserverQuery(biologicalSex)")))
    }

    @Test func theAsyncStreamYieldsOnStartAndPerChange() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.bodyMass])
        var updates = store.observe(.bodyMass).makeAsyncIterator()
        let first = try await updates.next()
        #expect(first == HealthObserverUpdate(type: .bodyMass, index: 0))
        #expect(first?.isInitial == true)
        try await store.save(try StoreFixture.sample(.bodyMass, 70, unit: "kg"))
        let second = try await updates.next()
        #expect(second?.index == 1)
        #expect(second?.isInitial == false)
    }

    @Test func theAsyncStreamThrowsWhenTheQueryCannotRun() async {
        let store = StoreFixture.store(available: false)
        var updates = store.observe(.bodyMass).makeAsyncIterator()
        await #expect(throws: HealthStoreError.healthDataUnavailable) { _ = try await updates.next() }
    }
}
