import FlowKit
import Foundation
import HealthFlow
import Testing

struct CallbackDeliveryTests {
    @Test func completionsRunOnTheCallbackExecutorNotOnTheCallersStack() async throws {
        let manual = ManualExecutor()
        let store = StoreFixture.store(executor: manual.executor)
        let outcomes = EventLog<Bool>()
        store.requestAuthorization(toShare: [.stepCount], read: []) { success, _ in outcomes.append(success) }
        #expect(outcomes.events.isEmpty)
        store.save(try StoreFixture.sample()) { success, _ in outcomes.append(success) }
        #expect(outcomes.events.isEmpty)
        #expect(manual.runAll() == 2)
        #expect(outcomes.events == [true, true])
    }

    @Test(arguments: [false, true])
    func callingTheStoreFromInsideACompletionDoesNotDeadlock(immediate: Bool) async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount], executor: immediate ? .immediate : nil)
        let first = try StoreFixture.sample()
        let second = try StoreFixture.sample()
        let (promise, resolver) = Promise<[HealthSample]>.pending()
        store.save(first) { _, _ in
            // Inside a completion: the store's lock must not be held, or each of these would deadlock.
            _ = store.authorizationStatus(for: .stepCount)
            store.save(second) { _, _ in
                store.execute(
                    HealthSampleQuery(sampleType: .stepCount) { _, samples, error in
                        resolver.resolve(samples, error)
                    })
            }
        }
        #expect(try await promise.value == [first, second])
    }

    @Test func theImmediateExecutorRunsCallbacksBeforeTheCallReturns() throws {
        let store = StoreFixture.store(executor: .immediate)
        let outcomes = EventLog<String>()
        store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) { success, _ in
            outcomes.append("authorized \(success)")
        }
        let inner = try StoreFixture.sample()
        store.save(try StoreFixture.sample()) { _, _ in
            store.save(inner) { _, _ in outcomes.append("inner") }  // runs after the outer one
            outcomes.append("outer")
        }
        #expect(outcomes.events == ["authorized true", "outer", "inner"])
    }

    @Test func callbacksArriveInTheOrderOfOperations() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let order = EventLog<Int>()
        let (promise, resolver) = Promise<Void>.pending()
        let count = 200
        for index in 0..<count {
            let sample = try StoreFixture.sample(start: Fixture.noon + Double(index))
            store.save(sample) { _, _ in
                order.append(index)
                if index == count - 1 { resolver.fulfill() }
            }
        }
        try await promise.value
        #expect(order.events == Array(0..<count))
    }

    @Test func thePolicyMayCallTheStore() async throws {
        let box = StoreBox()
        let seen = EventLog<AuthorizationStatus>()
        let store = StoreFixture.store(
            policy: .scripted { request in
                // Runs without the store's lock held: reading the status here must not deadlock.
                if let status = box.store?.authorizationStatus(for: .stepCount) { seen.append(status) }
                return request.grantingAll
            })
        box.store = store
        try await store.requestAuthorization(toShare: [.stepCount], read: [])
        #expect(seen.events == [.notDetermined])
        #expect(store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
    }

    @Test func concurrentSavesAndQueriesStayConsistent() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let writers = 4
        let perWriter = 150
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<perWriter {
                        let start = Fixture.noon + Double((index * writers + writer) % 97) * 60
                        try await store.save(try StoreFixture.sample(start: start))
                    }
                }
            }
            group.addTask {
                var anchor: HealthQueryAnchor?
                for _ in 0..<50 {
                    let page = try await store.changes(of: .stepCount, since: anchor, limit: 20)
                    if let anchor { #expect(anchor <= page.newAnchor) }
                    anchor = page.newAnchor
                    let all = try await store.samples(of: .stepCount, sortedBy: [.startDate()])
                    #expect(zip(all, all.dropFirst()).allSatisfy { $0.startDate <= $1.startDate })
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.samples(of: .stepCount).count == writers * perWriter)
        #expect(try await store.changes(of: .stepCount, since: nil).samples.count == writers * perWriter)
    }
}

/// Holds a store made after the closures that need it.
final class StoreBox: Sendable {
    /// Weak: the store's policy holds the box, so a strong reference back would keep both alive for good.
    private struct Reference {
        weak var store: InMemoryHealthStore?
    }

    private let storage = LockedState(Reference())

    var store: InMemoryHealthStore? {
        get { storage.withLock { $0.store } }
        set { storage.withLock { $0.store = newValue } }
    }
}
