import ExampleSupport
import Exercises
import FlowKit
import Foundation
import HealthFlow
import HealthSync
import ObserveAndUploadExample
import Testing

@Suite struct ExerciseObserveAndUploadTests {
    static let types = ObserveAndUploadExample.observedTypes

    struct QueryFailed: Error, Equatable {}

    /// Counts the fetches running at once. Each fetch waits (a bounded number of yields, no sleeping) until a
    /// partner is running too, so a limit of 2 is reached whenever the solution allows it.
    final class Probe: Sendable {
        private let state = LockedState<(running: Int, peak: Int, fetched: [HealthObjectType])>((0, 0, []))

        var peak: Int { state.withLock { $0.peak } }
        var fetched: [HealthObjectType] { state.withLock { $0.fetched } }

        func fetch(_ type: HealthObjectType, waitForPartner: Bool, failing: HealthObjectType? = nil) async throws
            -> GatheredChanges
        {
            state.withLock { state in
                state.running += 1
                state.peak = max(state.peak, state.running)
                state.fetched.append(type)
            }
            defer { state.withLock { $0.running -= 1 } }
            if waitForPartner {
                for _ in 0..<20_000 where state.withLock({ $0.running < 2 && $0.fetched.count < 4 }) {
                    await Task.yield()
                }
            }
            await Task.yield()
            if type == failing { throw QueryFailed() }
            return GatheredChanges(type: type, samples: [], deletedObjects: [], newAnchor: nil)
        }
    }

    // Exercise 1: gatherChanges(of:limit:fetch:)

    @Test func neverRunsMoreThanTwoQueriesAtOnceButDoesRunTwo() async throws {
        let probe = Probe()
        let gathered = try await gatherChanges(of: Self.types, limit: 2) { type in
            try await probe.fetch(type, waitForPartner: true)
        }
        #expect(gathered.map(\.type) == Self.types)
        #expect(probe.peak == 2)
        #expect(Set(probe.fetched) == Set(Self.types))
        #expect(probe.fetched.count == Self.types.count)
    }

    @Test func aLimitOfOneRunsThemOneByOneInOrder() async throws {
        let probe = Probe()
        let gathered = try await gatherChanges(of: Self.types, limit: 1) { type in
            try await probe.fetch(type, waitForPartner: false)
        }
        #expect(gathered.map(\.type) == Self.types)
        #expect(probe.peak == 1)
        #expect(probe.fetched == Self.types)
    }

    @Test func theFirstErrorIsThrown() async throws {
        let probe = Probe()
        await #expect(throws: QueryFailed.self) {
            try await gatherChanges(of: Self.types, limit: 2) { type in
                try await probe.fetch(type, waitForPartner: false, failing: .heartRate)
            }
        }
        #expect(probe.peak <= 2)
    }

    @Test func gathersTheRealStoreWithALimit() async throws {
        let context = ExampleContext.embedded()
        try await ObserveAndUploadExample.prepare(context)
        let gathered = try await gatherChanges(of: Self.types, limit: 2) { type in
            let changes = try await context.store.changes(of: type, since: nil)
            return GatheredChanges(
                type: type, samples: changes.samples, deletedObjects: changes.deletedObjects,
                newAnchor: changes.newAnchor)
        }
        #expect(gathered.map(\.samples.count) == [24, 48, 4, 1])
    }

    // Exercise 2: gatherChanges(of:in:since:)

    static func anchors(_ gathered: [GatheredChanges]) -> [HealthObjectType: HealthQueryAnchor] {
        Dictionary(
            uniqueKeysWithValues: gathered.compactMap { changes in changes.newAnchor.map { (changes.type, $0) } })
    }

    @Test func aSecondRunFromTheSavedAnchorsGathersNothing() async throws {
        let context = ExampleContext.embedded()
        try await ObserveAndUploadExample.prepare(context)
        let first = try await gatherChanges(of: Self.types, in: context.store, since: [:])
        #expect(first.map(\.type) == Self.types)
        #expect(first.map(\.samples.count) == [24, 48, 4, 1])
        let anchors = Self.anchors(first)
        #expect(anchors.count == Self.types.count)
        let second = try await gatherChanges(of: Self.types, in: context.store, since: anchors)
        #expect(second.map(\.type) == Self.types)
        #expect(second.map(\.samples.count) == [0, 0, 0, 0])
        #expect(second.allSatisfy { $0.deletedObjects.isEmpty })
    }

    @Test func resumesWithOnlyWhatIsNew() async throws {
        let context = ExampleContext.embedded()
        try await ObserveAndUploadExample.prepare(context)
        let anchors = Self.anchors(try await gatherChanges(of: Self.types, in: context.store, since: [:]))
        let steps = try HealthQuantitySample(
            type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 42), date: context.now,
            source: context.source)
        try await context.store.save(.quantity(steps))
        let third = try await gatherChanges(of: Self.types, in: context.store, since: anchors)
        #expect(third.map(\.samples.count) == [1, 0, 0, 0])
        #expect(third.first?.samples.first?.uuid == steps.uuid)
    }

    @Test func aTypeWithoutAnAnchorStartsFromTheBeginning() async throws {
        let context = ExampleContext.embedded()
        try await ObserveAndUploadExample.prepare(context)
        var anchors = Self.anchors(try await gatherChanges(of: Self.types, in: context.store, since: [:]))
        anchors[.heartRate] = nil
        let again = try await gatherChanges(of: Self.types, in: context.store, since: anchors)
        #expect(again.map(\.samples.count) == [0, 48, 0, 0])
    }
}

/// Fails the first `failures` uploads (after the inner transport stored the first one: a lost answer), then
/// forwards; records every attempt's batch ID.
private final class LosingTransport: UploadTransport {
    struct Lost: Error, Equatable {}
    let inner: any UploadTransport
    let failures: Int
    private let ids = LockedState<[UUID]>([])

    init(inner: any UploadTransport, failures: Int) {
        self.inner = inner
        self.failures = failures
    }

    var attempts: [UUID] { ids.withLock { $0 } }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        let attempt = ids.withLock { ids in
            ids.append(request.batchID)
            return ids.count
        }
        guard attempt > failures else {
            return inner.upload(request).then { _ -> Promise<UploadReceipt> in Promise(error: Lost()) }
        }
        return inner.upload(request)
    }
}

@Suite struct ExerciseObserveAndUploadRetryTests {
    static func gathered(_ context: ExampleContext) async throws -> [GatheredChanges] {
        try await ObserveAndUploadExample.prepare(context)
        return try await gatherChanges(of: ObserveAndUploadExample.observedTypes, in: context.store, since: [:])
    }

    @Test func everyAttemptResendsTheSameBatchAndTheOutboxKeepsItOnce() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        let outbox = try OutboxTransport(directory: context.workDirectory.appendingPathComponent("retry-outbox"))
        let losing = LosingTransport(inner: outbox, failures: 2)
        let receipt = try await uploadGathered(try await Self.gathered(context), in: context, to: losing, attempts: 3)
        #expect(losing.attempts.count == 3)
        #expect(Set(losing.attempts).count == 1, "one batch ID for every attempt")
        #expect(receipt.disposition == .duplicate, "the first attempt had been stored")
        #expect(try outbox.storedBatchIDs() == [receipt.batchID])
    }

    @Test func theLastAttemptsErrorIsThrown() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        let outbox = try OutboxTransport(directory: context.workDirectory.appendingPathComponent("retry-outbox"))
        let losing = LosingTransport(inner: outbox, failures: 5)
        let gathered = try await Self.gathered(context)
        await #expect(throws: LosingTransport.Lost()) {
            try await uploadGathered(gathered, in: context, to: losing, attempts: 2)
        }
        #expect(losing.attempts.count == 2)
    }
}
