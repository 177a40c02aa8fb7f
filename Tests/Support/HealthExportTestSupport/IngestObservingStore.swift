import FlowKit
import Foundation
import HealthExport
import HealthFlow

/// A store for import tests: it forwards everything to an in-memory store, runs `onIngest` after each batch
/// it ingests (to cancel an import mid-way), and with `keepsSamples == false` only counts what it is given, so a
/// memory measurement sees the import alone.
public final class IngestObservingStore: HealthSampleIngesting {
    /// The store everything is forwarded to.
    public let inner: InMemoryHealthStore
    /// Whether ingested samples reach ``inner`` (otherwise they are only counted).
    public let keepsSamples: Bool
    /// Runs after each ingested batch.
    public let onIngest: LockedState<(@Sendable () -> Void)?> = LockedState(nil)
    /// The number (from 1) of the call to ``ingest(_:)`` that throws ``Refused`` with nothing ingested, if any.
    public let refusing: LockedState<Int?> = LockedState(nil)
    private let counted = LockedState(0)
    /// Whether ``ingestCalls`` keeps each batch given (off for memory measurements).
    public let recordsBatches: Bool
    private let calls = LockedState<(count: Int, batches: [[HealthSample]])>((0, []))

    /// The error of the refused ingest.
    public struct Refused: Error, Equatable {
        /// Which call it was, from 1.
        public let call: Int

        /// The error of call `call`.
        public init(call: Int) {
            self.call = call
        }
    }

    /// A store over `inner`.
    public init(_ inner: InMemoryHealthStore, keepsSamples: Bool = true, recordsBatches: Bool = false) {
        self.inner = inner
        self.keepsSamples = keepsSamples
        self.recordsBatches = recordsBatches
    }

    /// Samples given to ``ingest(_:)``.
    public var ingestedCount: Int { counted.withLock { $0 } }
    /// The batches ``ingest(_:)`` was called with, in order, refused ones included, when ``recordsBatches``.
    public var ingestCalls: [[HealthSample]] { calls.withLock { $0.batches } }

    /// Notes the call; throws ``Refused`` when it is the one ``refusing`` names; else counts the samples, ingests
    /// them into ``inner`` when ``keepsSamples``, then runs ``onIngest``.
    public func ingest(_ samples: [HealthSample]) throws {
        let call = calls.withLock { calls in
            calls.count += 1
            if recordsBatches { calls.batches.append(samples) }
            return calls.count
        }
        if refusing.withLock({ $0 }) == call { throw Refused(call: call) }
        if keepsSamples { try inner.ingest(samples) }
        counted.withLock { $0 += samples.count }
        onIngest.withLock { $0 }?()
    }

    /// Forwards to ``inner``.
    public var isHealthDataAvailable: Bool { inner.isHealthDataAvailable }
    /// Forwards to ``inner``.
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { inner.requestAuthorization(toShare: typesToShare, read: typesToRead, completion: completion) }
    /// Forwards to ``inner``.
    public func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus {
        inner.authorizationStatus(for: type)
    }
    /// Forwards to ``inner``.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) { inner.getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead, completion: completion) }
    /// Forwards to ``inner``.
    public func save(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        inner.save(sample, withCompletion: completion)
    }
    /// Forwards to ``inner``.
    public func save(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        inner.save(samples, withCompletion: completion)
    }
    /// Forwards to ``inner``.
    public func delete(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        inner.delete(sample, withCompletion: completion)
    }
    /// Forwards to ``inner``.
    public func delete(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { inner.delete(samples, withCompletion: completion) }
    /// Forwards to ``inner``.
    public func execute(_ query: HealthQuery) { inner.execute(query) }
    /// Forwards to ``inner``.
    public func stop(_ query: HealthQuery) { inner.stop(query) }
    /// Forwards to ``inner``.
    public func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents { try inner.dateOfBirthComponents() }
    /// Forwards to ``inner``.
    public func biologicalSex() throws(HealthStoreError) -> BiologicalSex { try inner.biologicalSex() }
    /// Forwards to ``inner``.
    public func bloodType() throws(HealthStoreError) -> BloodType { try inner.bloodType() }
    /// Forwards to ``inner``.
    public func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType {
        try inner.fitzpatrickSkinType()
    }
    /// Forwards to ``inner``.
    public func wheelchairUse() throws(HealthStoreError) -> WheelchairUse { try inner.wheelchairUse() }
    /// Forwards to ``inner``.
    public func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode { try inner.activityMoveMode() }
}
