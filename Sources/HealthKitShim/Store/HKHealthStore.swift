import Foundation
import HealthFlow

/// The app's access to the health database: authorization, saving, deleting and queries. On Linux the
/// database is the shim device's HealthFlow store (`HealthKitShimDevice`); every rule HealthFlow checks
/// answers as HealthKit does, and where HealthKit raises an exception the shim stops the process.
///
/// - Note: Sendable as in the iOS 18 SDK.
public final class HKHealthStore: NSObject, @unchecked Sendable {
    // @unchecked: one `let` of a Sendable type; the database behind it is thread-safe.
    let device: HealthKitShimDevice

    /// A store over the current device's database.
    public override init() {
        self.device = HealthKitShimDevice.current
    }

    /// A store over `device`'s database (tests give each store its own device).
    @_spi(Testing)
    public init(device: HealthKitShimDevice) {
        self.device = device
    }

    private var backend: InMemoryHealthStore { device.backend }

    /// Whether health data is available on this device.
    public class func isHealthDataAvailable() -> Bool {
        HealthKitShimDevice.current.backend.isHealthDataAvailable
    }

    /// The sharing status of `type` (read access is never revealed).
    public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        device.record("authorizationStatus")
        return backend.authorizationStatus(for: type.healthFlowType)
    }

    /// Asks the person to allow sharing and reading; `success` means the request completed, not that access was
    /// granted. Read-only types in `typesToShare`, correlation types, or a missing usage description raise, as
    /// in HealthKit.
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        device.record("requestAuthorization")
        let share = Set((typesToShare ?? []).map(\.healthFlowType))
        let read = Set((typesToRead ?? []).map(\.healthFlowType))
        if let reason = ShimAuthorization.exceptionReason(
            share: share, read: read, configuration: backend.configuration)
        {
            HKShimException.raise(reason)
        }
        backend.requestAuthorization(toShare: share, read: read) { success, error in
            completion(success, error.map(HKError.init))
        }
    }

    /// Whether asking for these types would show the sheet.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        device.record("getRequestStatusForAuthorization")
        let share = Set(typesToShare.map(\.healthFlowType))
        let read = Set(typesToRead.map(\.healthFlowType))
        if let reason = ShimAuthorization.exceptionReason(
            share: share, read: read, configuration: backend.configuration)
        {
            HKShimException.raise(reason)
        }
        backend.getRequestStatusForAuthorization(toShare: share, read: read) { status, error in
            completion(status, error.map(HKError.init))
        }
    }

    /// Saves one object.
    public func save(_ object: HKObject, withCompletion completion: @escaping (Bool, (any Error)?) -> Void) {
        save([object], withCompletion: completion)
    }

    /// Saves objects, all or none; the saving app becomes their source.
    public func save(_ objects: [HKObject], withCompletion completion: @escaping (Bool, (any Error)?) -> Void) {
        device.record("save")
        let callback = ShimCallback(call: completion)
        var samples: [HealthSample] = []
        for object in objects {
            do {
                samples.append(try ShimSaving.stamped(object.healthFlowSample, source: backend.source))
            } catch {
                HKShimException.raise(ShimExceptionReason.message(for: error))
            }
        }
        backend.save(samples) { success, error in callback.call(success, error.map(HKError.init)) }
    }

    /// Deletes one object this app saved.
    public func delete(_ object: HKObject, withCompletion completion: @escaping (Bool, (any Error)?) -> Void) {
        delete([object], withCompletion: completion)
    }

    /// Deletes objects this app saved, all or none.
    public func delete(_ objects: [HKObject], withCompletion completion: @escaping (Bool, (any Error)?) -> Void) {
        device.record("delete")
        let callback = ShimCallback(call: completion)
        backend.delete(objects.map(\.healthFlowSample)) { success, error in
            callback.call(success, error.map(HKError.init))
        }
    }

    /// Deletes every object of a type matching a predicate (only this app's objects).
    public func deleteObjects(
        of objectType: HKObjectType, predicate: NSPredicate,
        withCompletion completion: @escaping (Bool, Int, (any Error)?) -> Void
    ) {
        device.record("deleteObjects")
        let callback = ShimCallback(call: completion)
        let backend = backend
        let mine = SamplePredicate.sources([backend.source.bundleIdentifier])
        let query = HealthSampleQuery(
            sampleType: objectType.healthFlowType, predicate: ShimPredicate.samplePredicate(predicate) && mine
        ) { _, samples, error in
            guard let samples else { return callback.call(false, 0, error.map(HKError.init)) }
            guard !samples.isEmpty else { return callback.call(true, 0, nil) }
            backend.delete(samples) { success, error in
                callback.call(success, success ? samples.count : 0, error.map(HKError.init))
            }
        }
        backend.execute(query)
    }

    /// Starts a query; results arrive on its handlers. Executing a query a second time raises, as in
    /// HealthKit.
    public func execute(_ query: HKQuery) {
        device.record("execute")
        let inner = query.makeHealthFlowQuery()
        query.claimExecution(inner)
        backend.execute(inner)
    }

    /// Stops a running query (nothing happens for a query that is not running).
    public func stop(_ query: HKQuery) {
        device.record("stop")
        if let inner = query.runningQuery { backend.stop(inner) }
    }

    /// Lets the app be woken when new data of `type` arrives, at most as often as `frequency` (on Linux there
    /// is no app to wake: the shim records the request and succeeds).
    public func enableBackgroundDelivery(
        for type: HKObjectType, frequency: HKUpdateFrequency,
        withCompletion completion: @escaping (Bool, (any Error)?) -> Void
    ) {
        device.record("enableBackgroundDelivery")
        completion(true, nil)
    }

    /// Stops background delivery for `type`.
    public func disableBackgroundDelivery(
        for type: HKObjectType, withCompletion completion: @escaping (Bool, (any Error)?) -> Void
    ) {
        device.record("disableBackgroundDelivery")
        completion(true, nil)
    }

    /// Stops all background delivery.
    public func disableAllBackgroundDelivery(completion: @escaping (Bool, (any Error)?) -> Void) {
        device.record("disableAllBackgroundDelivery")
        completion(true, nil)
    }
}
