import FlowKit
import Foundation
import HealthFlow
import Testing

/// The callback API, its promise twins and its async twins give the same outcomes.
struct HealthStoreTwinTests {
    /// An outcome in a comparable form.
    enum Outcome<Value: Equatable & Sendable>: Equatable, Sendable {
        case value(Value)
        case error(HealthStoreError)
        case foreign(String)

        init(_ result: Result<Value, any Error>) {
            switch result {
            case .success(let value): self = .value(value)
            case .failure(let error as HealthStoreError): self = .error(error)
            case .failure(let error): self = .foreign(String(describing: error))
            }
        }
    }

    struct Unit: Equatable, Sendable {}

    /// Three identical stores, one per style.
    static func stores(policy: AuthorizationPolicy = .grantAll) -> [InMemoryHealthStore] {
        (0..<3).map { _ in StoreFixture.store(policy: policy) }
    }

    /// Runs a `(Bool, Error?)` operation in the three styles.
    static func threeWays(
        _ stores: [InMemoryHealthStore],
        callback: (InMemoryHealthStore, @escaping @Sendable (Bool, (any Error)?) -> Void) -> Void,
        promise: (InMemoryHealthStore) -> Promise<Void>,
        async body: (InMemoryHealthStore) async throws -> Void
    ) async -> [Outcome<Unit>] {
        let viaCallback = await completion { callback(stores[0], $0) }
        let callbackOutcome: Outcome<Unit> =
            viaCallback.success ? .value(Unit()) : .error(viaCallback.error ?? .unknown(reason: "no error"))
        let promiseOutcome = Outcome<Unit>(await promise(stores[1]).settled.map { Unit() })
        let asyncOutcome: Outcome<Unit>
        do {
            try await body(stores[2])
            asyncOutcome = .value(Unit())
        } catch {
            asyncOutcome = Outcome(.failure(error))
        }
        return [callbackOutcome, promiseOutcome, asyncOutcome]
    }

    static func allEqual<T: Equatable>(_ outcomes: [T]) -> Bool {
        outcomes.allSatisfy { $0 == outcomes[0] }
    }

    struct AuthorizationScenario: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: AuthorizationPolicy
        let share: Set<HealthObjectType>
        let read: Set<HealthObjectType>
        var testDescription: String { name }
    }

    static let authorizationScenarios = [
        AuthorizationScenario(name: "granted", policy: .grantAll, share: [.stepCount], read: [.height]),
        AuthorizationScenario(name: "canceled", policy: .userCancels, share: [.stepCount], read: []),
        AuthorizationScenario(name: "correlation", policy: .grantAll, share: [.bloodPressure], read: []),
        AuthorizationScenario(name: "empty", policy: .grantAll, share: [], read: []),
    ]

    @Test(arguments: authorizationScenarios)
    func authorizationAgrees(scenario: AuthorizationScenario) async {
        let (policy, share, read) = (scenario.policy, scenario.share, scenario.read)
        let stores = Self.stores(policy: policy)
        let outcomes = await Self.threeWays(
            stores,
            callback: { $0.requestAuthorization(toShare: share, read: read, completion: $1) },
            promise: { $0.requestAuthorization(toShare: share, read: read) },
            async: { try await $0.requestAuthorization(toShare: share, read: read) })
        #expect(Self.allEqual(outcomes), "\(outcomes)")
        #expect(Self.allEqual(stores.map { $0.authorizationStatus(for: .stepCount) }))
    }

    @Test func saveAndDeleteAgree() async throws {
        let stores = Self.stores(policy: .deny(share: [.bodyMass]))
        for store in stores {
            try await store.requestAuthorization(toShare: [.stepCount, .bodyMass], read: [.stepCount])
        }
        let uuid = UUID()
        let steps = try StoreFixture.sample(uuid: uuid)
        let scenarios: [HealthSample] = [steps, steps, try StoreFixture.sample(.bodyMass, 70, unit: "kg")]
        for sample in scenarios {
            let outcomes = await Self.threeWays(
                stores, callback: { $0.save(sample, withCompletion: $1) }, promise: { $0.save(sample) },
                async: { try await $0.save(sample) })
            #expect(Self.allEqual(outcomes), "\(outcomes)")
        }
        let batch = [try StoreFixture.sample(uuid: UUID()), steps]
        let batchOutcomes = await Self.threeWays(
            stores, callback: { $0.save(batch, withCompletion: $1) }, promise: { $0.save(batch) },
            async: { try await $0.save(batch) })
        #expect(batchOutcomes == Array(repeating: .error(.duplicateUUID(uuid)), count: 3))
        for _ in 0..<2 {
            let outcomes = await Self.threeWays(
                stores, callback: { $0.delete(steps, withCompletion: $1) }, promise: { $0.delete(steps) },
                async: { try await $0.delete(steps) })
            #expect(Self.allEqual(outcomes), "\(outcomes)")
        }
        let batchDelete = await Self.threeWays(
            stores, callback: { $0.delete([steps], withCompletion: $1) }, promise: { $0.delete([steps]) },
            async: { try await $0.delete([steps]) })
        #expect(batchDelete == Array(repeating: .error(.objectNotFound(uuid)), count: 3))
    }

    @Test func queriesAgree() async throws {
        let stores = Self.stores()
        let samples = try (0..<20).map { try StoreFixture.sample(start: Fixture.noon + Double($0) * 60, duration: 30) }
        for store in stores {
            try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
            try await store.save(samples)
        }
        let predicate = SamplePredicate.samples(withStart: Fixture.noon + 300, end: Fixture.noon + 900)
        let viaCallback = await callbackSamples(stores[0]) {
            HealthSampleQuery(
                sampleType: .stepCount, predicate: predicate, limit: 4, sortDescriptors: [.endDate(ascending: false)],
                resultsHandler: $0)
        }
        let promise: Promise<[HealthSample]> = firstly {
            stores[1].samples(
                of: .stepCount, matching: predicate, sortedBy: [.endDate(ascending: false)], limit: 4)
        }
        let viaPromise = await promise.settled
        let viaAsync = try await stores[2].samples(
            of: .stepCount, matching: predicate, sortedBy: [.endDate(ascending: false)], limit: 4)
        #expect(try viaCallback.get() == viaAsync)
        #expect(try viaPromise.get() == viaAsync)
        #expect(viaAsync == Array(samples[5..<15].reversed().prefix(4)))

        let failing: Promise<[HealthSample]> = firstly { stores[1].samples(of: .biologicalSex) }
        let expected = HealthStoreError.unsupportedQueryType(.biologicalSex, query: "HealthSampleQuery(biologicalSex)")
        #expect(Outcome(await failing.settled.map { _ in Unit() }) == .error(expected))
        let asyncError = await storeError { _ = try await stores[2].samples(of: .biologicalSex) }
        #expect(asyncError == expected)
    }

    @Test func anchoredChangesAgree() async throws {
        let stores = Self.stores()
        let samples = try (0..<5).map { try StoreFixture.sample(start: Fixture.noon + Double($0)) }
        for store in stores {
            try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
            try await store.save(samples)
            try await store.delete(samples[1])
        }
        let (promise, resolver) = Promise<HealthAnchoredChanges>.pending()
        stores[0].execute(
            HealthAnchoredObjectQuery(type: .stepCount, anchor: nil, limit: 3) { _, added, deleted, anchor, error in
                if let added, let deleted, let anchor {
                    resolver.fulfill(HealthAnchoredChanges(samples: added, deletedObjects: deleted, newAnchor: anchor))
                } else {
                    resolver.reject(error ?? HealthStoreError.unknown(reason: "no error"))
                }
            })
        let viaCallback = try await promise.value
        let twin: Promise<HealthAnchoredChanges> = firstly { stores[1].changes(of: .stepCount, since: nil, limit: 3) }
        let viaPromise = try await twin.value
        let viaAsync = try await stores[2].changes(of: .stepCount, since: nil, limit: 3)
        #expect(viaCallback == viaPromise)
        #expect(viaPromise == viaAsync)
        #expect(viaAsync.samples == [samples[0], samples[2], samples[3]])
    }

    @Test func requestStatusAgrees() async throws {
        let stores = Self.stores()
        let (promise, resolver) = Promise<AuthorizationRequestStatus>.pending()
        stores[0].getRequestStatusForAuthorization(toShare: [.height], read: []) { status, error in
            resolver.resolve(status, error)
        }
        let viaCallback = try await promise.value
        let twin: Promise<AuthorizationRequestStatus> = firstly {
            stores[1].statusForAuthorizationRequest(
                toShare: [.height], read: [])
        }
        let viaPromise = try await twin.value
        let viaAsync = try await stores[2].statusForAuthorizationRequest(toShare: [.height], read: [])
        #expect([viaCallback, viaPromise, viaAsync] == [.shouldRequest, .shouldRequest, .shouldRequest])
        let invalid = await storeError { _ = try await stores[2].statusForAuthorizationRequest(toShare: [], read: []) }
        #expect(invalid == .emptyAuthorizationRequest)
    }

    @Test func cancellingAQueryPromiseStopsTheQuery() async throws {
        let manual = ManualExecutor()
        let store = StoreFixture.store(executor: manual.executor)
        store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) { _, _ in }
        manual.runAll()
        let promise: Promise<[HealthSample]> = firstly { store.samples(of: .stepCount) }
        promise.cancel()
        manual.runAll()
        let result = await promise.settled
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
