import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import HealthSync
import ObserveAndUploadExample
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExerciseObserveAndUploadTests {
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
        let gathered = try await answers.gatherChanges(of: Self.types, limit: 2) { type in
            try await probe.fetch(type, waitForPartner: true)
        }
        #expect(
            gathered.map(\.type) == Self.types,
            "results must come back in the order of `types`, whatever order the fetches finish in")
        #expect(
            probe.peak == 2, "with a limit of 2, exactly 2 fetches must run at once at the peak (not fewer, not more)")
        #expect(Set(probe.fetched) == Set(Self.types), "every type must be fetched")
        #expect(probe.fetched.count == Self.types.count, "every type must be fetched exactly once")
    }

    @Test func aLimitOfOneRunsThemOneByOneInOrder() async throws {
        let probe = Probe()
        let gathered = try await answers.gatherChanges(of: Self.types, limit: 1) { type in
            try await probe.fetch(type, waitForPartner: false)
        }
        #expect(gathered.map(\.type) == Self.types, "results must come back in the order of `types`")
        #expect(probe.peak == 1, "with a limit of 1, the fetches must run one at a time")
        #expect(probe.fetched == Self.types, "with a limit of 1, the fetches must start in the order of `types`")
    }

    @Test func theFirstErrorIsThrown() async throws {
        let probe = Probe()
        await #expect(throws: QueryFailed.self, "the first fetch error must be thrown") {
            try await answers.gatherChanges(of: Self.types, limit: 2) { type in
                try await probe.fetch(type, waitForPartner: false, failing: .heartRate)
            }
        }
        #expect(probe.peak <= 2, "even while failing, no more than `limit` fetches may run at once")
    }

    @Test func gathersTheRealStoreWithALimit() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ObserveAndUploadExample.prepare(context)
        let gathered = try await answers.gatherChanges(of: Self.types, limit: 2) { type in
            let changes = try await context.store.changes(of: type, since: nil)
            return GatheredChanges(
                type: type, samples: changes.samples, deletedObjects: changes.deletedObjects,
                newAnchor: changes.newAnchor)
        }
        #expect(gathered.map(\.samples.count) == [24, 48, 4, 1], "each type's samples in the example store")
    }

    // Exercise 2: gatherChanges(of:in:since:)

    static func anchors(_ gathered: [GatheredChanges]) -> [HealthObjectType: HealthQueryAnchor] {
        Dictionary(
            uniqueKeysWithValues: gathered.compactMap { changes in changes.newAnchor.map { (changes.type, $0) } })
    }

    @Test func aSecondRunFromTheSavedAnchorsGathersNothing() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ObserveAndUploadExample.prepare(context)
        let first = try await answers.gatherChanges(of: Self.types, in: context.store, since: [:])
        #expect(first.map(\.type) == Self.types, "results must come back in the order of `types`")
        #expect(
            first.map(\.samples.count) == [24, 48, 4, 1], "a type without an anchor must be gathered from the beginning"
        )
        let anchors = Self.anchors(first)
        #expect(anchors.count == Self.types.count, "every type must come back with a new anchor")
        let second = try await answers.gatherChanges(of: Self.types, in: context.store, since: anchors)
        #expect(second.map(\.type) == Self.types, "results must come back in the order of `types`")
        #expect(
            second.map(\.samples.count) == [0, 0, 0, 0], "a second run from the saved anchors must gather no samples")
        #expect(
            second.allSatisfy { $0.deletedObjects.isEmpty },
            "a second run from the saved anchors must gather no deletions")
    }

    @Test func resumesWithOnlyWhatIsNew() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ObserveAndUploadExample.prepare(context)
        let anchors = Self.anchors(try await answers.gatherChanges(of: Self.types, in: context.store, since: [:]))
        let steps = try HealthQuantitySample(
            type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 42), date: context.now,
            source: context.source)
        try await context.store.save(.quantity(steps))
        let third = try await answers.gatherChanges(of: Self.types, in: context.store, since: anchors)
        #expect(
            third.map(\.samples.count) == [1, 0, 0, 0],
            "after one new step sample, a run from the saved anchors must gather exactly that sample")
        #expect(third.first?.samples.first?.uuid == steps.uuid, "the sample gathered must be the one just saved")
    }

    @Test func aTypeWithoutAnAnchorStartsFromTheBeginning() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ObserveAndUploadExample.prepare(context)
        var anchors = Self.anchors(try await answers.gatherChanges(of: Self.types, in: context.store, since: [:]))
        anchors[.heartRate] = nil
        let again = try await answers.gatherChanges(of: Self.types, in: context.store, since: anchors)
        #expect(
            again.map(\.samples.count) == [0, 48, 0, 0],
            "only the type whose anchor was dropped is gathered again, from the beginning")
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

@Suite(.timeLimit(.minutes(10))) struct ExerciseObserveAndUploadRetryTests {
    static func gathered(_ context: ExampleContext) async throws -> [GatheredChanges] {
        try await ObserveAndUploadExample.prepare(context)
        return try await answers.gatherChanges(of: ObserveAndUploadExample.observedTypes, in: context.store, since: [:])
    }

    @Test func everyAttemptResendsTheSameBatchAndTheOutboxKeepsItOnce() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        let outbox = try OutboxTransport(directory: context.workDirectory.appendingPathComponent("retry-outbox"))
        let losing = LosingTransport(inner: outbox, failures: 2)
        let receipt = try await answers.uploadGathered(
            try await Self.gathered(context), in: context, to: losing, attempts: 3)
        #expect(losing.attempts.count == 3, "three attempts were needed: the first two answers were lost")
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
        await #expect(
            throws: LosingTransport.Lost(), "when every attempt fails, the last attempt's error must be thrown"
        ) {
            try await answers.uploadGathered(gathered, in: context, to: losing, attempts: 2)
        }
        #expect(
            losing.attempts.count == 2,
            "with 2 attempts allowed, exactly 2 must be tried before the last error is thrown")
    }
}
