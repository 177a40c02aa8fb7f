import FlowKit
import Foundation
import HealthFlow
import Testing

struct QueryLifecycleTests {
    @Test func aSampleQueryExecutedTwiceReportsAnErrorTheSecondTime() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let outcomes = EventLog<HealthStoreError?>()
        let (promise, resolver) = Promise<Void>.pending()
        let query = HealthSampleQuery(sampleType: .stepCount) { _, _, error in
            outcomes.append(error as? HealthStoreError)
            if outcomes.events.count == 2 { resolver.fulfill() }
        }
        store.execute(query)
        store.execute(query)
        try await promise.value
        #expect(
            Set(outcomes.events.map(String.init(describing:)))
                == Set([
                    String(describing: HealthStoreError?.none),
                    String(
                        describing: HealthStoreError?.some(.queryAlreadyExecuted(query: "HealthSampleQuery(stepCount)"))
                    ),
                ]))
        #expect(query.isExecuted)
    }

    @Test func anAnchoredQueryExecutedTwiceReportsAnError() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let errors = EventLog<HealthStoreError>()
        let (promise, resolver) = Promise<Void>.pending()
        let query = HealthAnchoredObjectQuery(type: .stepCount, anchor: nil) { _, _, _, _, error in
            if let error = error as? HealthStoreError { errors.append(error) }
            resolver.fulfill()
        }
        store.execute(query)
        try await promise.value
        store.execute(query)
        // Callbacks arrive in order on the store's serial queue: the error comes before these results.
        _ = try await store.samples(of: .stepCount)
        #expect(errors.events == [.queryAlreadyExecuted(query: "HealthAnchoredObjectQuery(stepCount)")])
    }

    @Test func anObserverQueryExecutedTwiceReportsAnError() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let errors = EventLog<HealthStoreError>()
        let query = HealthObserverQuery(sampleType: .stepCount) { _, completion, error in
            if let error = error as? HealthStoreError { errors.append(error) }
            completion()
        }
        store.execute(query)
        store.execute(query)
        defer { store.stop(query) }
        _ = try await store.samples(of: .stepCount)
        #expect(errors.events == [.queryAlreadyExecuted(query: "HealthObserverQuery(stepCount)")])
        #expect(query.deliveredUpdates == 1)  // the error is not an update of the running query
    }

    @Test func aQueryStoppedBeforeDeliveryNeverCallsItsHandler() async throws {
        let manual = ManualExecutor()
        let store = StoreFixture.store(executor: manual.executor)
        store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) { _, _ in }
        manual.runAll()
        let called = EventLog<Int>()
        let query = HealthSampleQuery(sampleType: .stepCount) { _, _, _ in called.append(1) }
        store.execute(query)
        #expect(manual.pending == 1)
        store.stop(query)
        manual.runAll()
        #expect(called.events.isEmpty)
        #expect(query.isStopped)
    }

    @Test func stoppingAQueryThatNeverRanDoesNothing() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let (promise, resolver) = Promise<[HealthSample]>.pending()
        let query = HealthSampleQuery(sampleType: .stepCount) { _, samples, error in resolver.resolve(samples, error) }
        store.stop(query)
        #expect(query.isStopped == false)
        #expect(query.isExecuted == false)
        store.execute(query)
        #expect(try await promise.value.isEmpty)
    }

    @Test func aPendingUpdateOfAStoppedAnchoredQueryIsDropped() async throws {
        let manual = ManualExecutor()
        let store = StoreFixture.store(executor: manual.executor)
        store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) { _, _ in }
        manual.runAll()
        let updates = EventLog<Int>()
        let query = HealthAnchoredObjectQuery(
            type: .stepCount, anchor: nil, updateHandler: { _, _, _, _, _ in updates.append(1) }
        ) { _, _, _, _, _ in }
        store.execute(query)
        manual.runAll()
        store.save(try StoreFixture.sample()) { _, _ in }
        #expect(manual.pending == 2)  // the save's completion and the update
        store.stop(query)
        manual.runAll()
        #expect(updates.events.isEmpty)
    }
}
