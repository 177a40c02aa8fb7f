import FlowKit
import Foundation
import HealthFlow
import Testing

@Suite struct NextChangeTests {
    @Test func fulfillsAtTheFirstChangeNotAtTheInitialNotification() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount], executor: .immediate)
        let change: Promise<HealthObserverUpdate> = firstly { store.nextChange(of: .stepCount) }
        #expect(change.isPending)
        try await store.save(try StoreFixture.sample(.stepCount))
        let update = try await change.value
        #expect(update == HealthObserverUpdate(type: .stepCount, index: 1))
    }

    @Test func ignoresChangesToOtherTypes() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount, .bodyMass], executor: .immediate)
        let change: Promise<HealthObserverUpdate> = firstly { store.nextChange(of: .stepCount) }
        try await store.save(try StoreFixture.sample(.bodyMass, 70, unit: "kg"))
        #expect(change.isPending)
        change.cancel()
    }

    @Test func theAsyncTwinReturnsAfterASave() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount], executor: .immediate)
        let (arrived, resolver) = Promise<HealthObserverUpdate>.pending()
        let waiter = Task {
            do { resolver.fulfill(try await store.nextChange(of: .stepCount)) } catch { resolver.reject(error) }
        }
        // The waiting task starts observing at a moment the test cannot see; keep changing the store (a bounded
        // number of times) until it has noticed one change. Should it never, the wait is cancelled: the test fails
        // instead of waiting for ever.
        for _ in 0..<10_000 where arrived.isPending {
            try await store.save(try StoreFixture.sample(.stepCount))
            await Task.yield()
        }
        if arrived.isPending { waiter.cancel() }
        #expect(try await arrived.value.index == 1)
        _ = await waiter.result
    }

    @Test func cancellingTheWaitingTaskStopsTheWait() async {
        let store = StoreFixture.store(executor: .immediate)
        let waiter = Task { try await store.nextChange(of: .stepCount) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func rejectsWhenHealthDataIsUnavailable() async {
        let store = StoreFixture.store(executor: .immediate, available: false)
        let change: Promise<HealthObserverUpdate> = firstly { store.nextChange(of: .stepCount) }
        guard case .failure(let error) = await change.settled else {
            Issue.record("expected a rejection")
            return
        }
        #expect(error as? HealthStoreError == .healthDataUnavailable)
    }
}
