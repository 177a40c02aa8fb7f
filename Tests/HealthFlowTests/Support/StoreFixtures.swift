import FlowKit
import Foundation
import HealthFlow
import Testing

/// Stores, samples and callback helpers for the store tests.
enum StoreFixture {
    /// The app under test; its source is `Fixture.source`, so `Fixture.sample` makes the app's own samples.
    static let app = HealthAppConfiguration(
        bundleIdentifier: Fixture.source.bundleIdentifier, name: Fixture.source.name,
        healthShareUsageDescription: "Reads your data to show trends.",
        healthUpdateUsageDescription: "Saves what you log.")

    static func store(
        policy: AuthorizationPolicy = .grantAll, executor: FlowExecutor? = nil,
        characteristics: HealthCharacteristics = HealthCharacteristics(), available: Bool = true,
        configuration: HealthAppConfiguration = app
    ) -> InMemoryHealthStore {
        InMemoryHealthStore(
            configuration: configuration, policy: policy, characteristics: characteristics,
            callbackExecutor: executor, isHealthDataAvailable: available)
    }

    /// A store whose app asked for (and, per `policy`, got) the given types.
    static func authorizedStore(
        share: Set<HealthObjectType>, read: Set<HealthObjectType> = [], policy: AuthorizationPolicy = .grantAll,
        executor: FlowExecutor? = nil
    ) async throws -> InMemoryHealthStore {
        let store = store(policy: policy, executor: executor)
        try await store.requestAuthorization(toShare: share, read: read.isEmpty ? share : read)
        return store
    }

    /// A quantity sample from `source` (the app's by default).
    static func sample(
        _ type: HealthObjectType = .stepCount, _ value: Double = 100, unit: String = "count",
        start: Date = Fixture.noon,
        duration: TimeInterval = 0, source: HealthSource = Fixture.source,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws -> HealthSample {
        .quantity(
            try HealthQuantitySample(
                type: type, quantity: Fixture.quantity(value, unit), start: start, end: start + duration,
                source: source, metadata: metadata, uuid: uuid))
    }

    /// A blood-pressure reading from `source`.
    static func bloodPressure(source: HealthSource = Fixture.source, at date: Date = Fixture.noon) throws
        -> HealthSample
    {
        .correlation(
            try HealthCorrelation.bloodPressure(
                systolic: Fixture.quantity(120, "mmHg"), diastolic: Fixture.quantity(80, "mmHg"), start: date,
                end: date, source: source))
    }
}

/// Calls `body` with a `(Bool, Error?)` completion and waits for it.
func completion(
    _ body: (@escaping @Sendable (Bool, (any Error)?) -> Void) -> Void
) async -> (success: Bool, error: HealthStoreError?) {
    let (promise, resolver) = Promise<(Bool, HealthStoreError?)>.pending()
    body { success, error in resolver.fulfill((success, error as? HealthStoreError)) }
    switch await promise.settled {
    case .success(let outcome): return outcome
    case .failure: return (false, .unknown(reason: "completion promise failed"))
    }
}

/// Runs a sample query through its callback and waits for the handler.
func callbackSamples(
    _ store: any HealthStore, _ query: (@escaping HealthSampleQuery.ResultsHandler) -> HealthSampleQuery
)
    async -> Result<[HealthSample], HealthStoreError>
{
    let (promise, resolver) = Promise<Result<[HealthSample], HealthStoreError>>.pending()
    store.execute(
        query { _, samples, error in
            if let samples {
                resolver.fulfill(.success(samples))
            } else {
                resolver.fulfill(.failure(error as? HealthStoreError ?? .unknown(reason: "not a store error")))
            }
        })
    switch await promise.settled {
    case .success(let result): return result
    case .failure: return .failure(.unknown(reason: "query promise failed"))
    }
}

/// The store error a failed `body` threw, or `nil` (recording an issue) when it succeeded or threw another error.
func storeError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> HealthStoreError? {
    do {
        try await body()
        Issue.record("expected a HealthStoreError, got success", sourceLocation: sourceLocation)
        return nil
    } catch let error as HealthStoreError {
        return error
    } catch {
        Issue.record("expected a HealthStoreError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// An executor that holds jobs until the test runs them, to observe what a store delivers and when.
final class ManualExecutor: Sendable {
    private let jobs = LockedState<[@Sendable () -> Void]>([])

    var executor: FlowExecutor {
        .custom { job in self.jobs.withLock { $0.append(job) } }
    }

    var pending: Int { jobs.withLock { $0.count } }

    /// Runs queued jobs (and jobs they queue) until none is left; returns how many ran.
    @discardableResult
    func runAll() -> Int {
        var ran = 0
        while true {
            let batch = jobs.withLock { jobs in
                defer { jobs = [] }
                return jobs
            }
            if batch.isEmpty { return ran }
            for job in batch { job() }
            ran += batch.count
        }
    }
}

/// A thread-safe list of events.
final class EventLog<Element: Sendable>: Sendable {
    private let storage = LockedState<[Element]>([])

    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var events: [Element] { storage.withLock { $0 } }
}

/// SplitMix64: a small, fast, seedable generator for reproducible random data.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension UUID {
    /// A UUID drawn from `generator`, so seeded tests are reproducible.
    static func random(using generator: inout SeededGenerator) -> UUID {
        let a = generator.next()
        let b = generator.next()
        return UUID(
            uuid: (
                UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: a >> 8), UInt8(truncatingIfNeeded: a >> 16),
                UInt8(truncatingIfNeeded: a >> 24), UInt8(truncatingIfNeeded: a >> 32),
                UInt8(truncatingIfNeeded: a >> 40), UInt8(truncatingIfNeeded: a >> 48),
                UInt8(truncatingIfNeeded: a >> 56), UInt8(truncatingIfNeeded: b), UInt8(truncatingIfNeeded: b >> 8),
                UInt8(truncatingIfNeeded: b >> 16), UInt8(truncatingIfNeeded: b >> 24),
                UInt8(truncatingIfNeeded: b >> 32), UInt8(truncatingIfNeeded: b >> 40),
                UInt8(truncatingIfNeeded: b >> 48), UInt8(truncatingIfNeeded: b >> 56)
            ))
    }
}
