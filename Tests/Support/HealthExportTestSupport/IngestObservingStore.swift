import Foundation
import HealthExport
import HealthFlow
import Synchronization

/// A store for import tests: it forwards everything to an in-memory store, runs `onIngest` after each batch
/// it ingests (to cancel an import mid-way), and with `keepsSamples == false` only counts what it is given, so a
/// memory measurement sees the import alone.
public final class IngestObservingStore: HealthSampleIngesting {
    public let inner: InMemoryHealthStore
    public let keepsSamples: Bool
    public let onIngest: Mutex<(@Sendable () -> Void)?> = Mutex(nil)
    private let counted = Mutex(0)

    public init(_ inner: InMemoryHealthStore, keepsSamples: Bool = true) {
        self.inner = inner
        self.keepsSamples = keepsSamples
    }

    /// Samples given to ``ingest(_:)``.
    public var ingestedCount: Int { counted.withLock { $0 } }

    public func ingest(_ samples: [HealthSample]) throws {
        if keepsSamples { try inner.ingest(samples) }
        counted.withLock { $0 += samples.count }
        onIngest.withLock { $0 }?()
    }

    public var isHealthDataAvailable: Bool { inner.isHealthDataAvailable }
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { inner.requestAuthorization(toShare: typesToShare, read: typesToRead, completion: completion) }
    public func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus {
        inner.authorizationStatus(for: type)
    }
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) { inner.getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead, completion: completion) }
    public func save(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        inner.save(sample, withCompletion: completion)
    }
    public func save(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        inner.save(samples, withCompletion: completion)
    }
    public func delete(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        inner.delete(sample, withCompletion: completion)
    }
    public func delete(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) { inner.delete(samples, withCompletion: completion) }
    public func execute(_ query: HealthQuery) { inner.execute(query) }
    public func stop(_ query: HealthQuery) { inner.stop(query) }
    public func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents { try inner.dateOfBirthComponents() }
    public func biologicalSex() throws(HealthStoreError) -> BiologicalSex { try inner.biologicalSex() }
    public func bloodType() throws(HealthStoreError) -> BloodType { try inner.bloodType() }
    public func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType {
        try inner.fitzpatrickSkinType()
    }
    public func wheelchairUse() throws(HealthStoreError) -> WheelchairUse { try inner.wheelchairUse() }
    public func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode { try inner.activityMoveMode() }
}
