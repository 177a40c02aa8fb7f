import FlowKit
import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

extension HealthKitStore {
    /// Validates every sample with HealthFlow's rules (units, dates, required metadata, shareable and
    /// authorized types, the app as source, UUIDs new to the database — looked up in HealthKit by the UUID the
    /// bridge saves with each object) and only then saves them to HealthKit, all or none.
    public func save(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let objects: [HKObject]
        do {
            objects = try checkedForSaving(samples)
        } catch {
            return completion(false, error)
        }
        let flat = samples.flatMap(HealthSaveRules.flattened)
        fetchObjects(uuids: Set(flat.map(\.uuid)), types: Set(flat.map(\.type))) { [self] existing in
            if let duplicate = flat.first(where: { existing[$0.uuid] != nil }) {
                return completion(false, HealthStoreError.duplicateUUID(duplicate.uuid))
            }
            let first = samples.first?.type
            healthStore.save(objects) { success, error in
                completion(success, error.map { BridgeErrors.healthFlow($0, type: first) })
            }
        }
    }

    /// HealthFlow's save rules (``HealthSaveRules``; UUIDs already in HealthKit are checked after, by asking
    /// it), then the HealthKit objects to save.
    private func checkedForSaving(_ samples: [HealthSample]) throws(HealthStoreError) -> [HKObject] {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        try HealthSaveRules.validate(samples)
        try HealthSaveRules.checkSave(
            samples, appBundleIdentifier: source.bundleIdentifier, sharing: authorizationStatus(for:), isStored: nil)
        var objects: [HKObject] = []
        for sample in samples {
            guard let object = BridgeSamples.healthKit(sample) else { throw .typeNotShareable(sample.type) }
            objects.append(object)
        }
        return objects
    }

    /// Finds the HealthKit objects of these samples (by the UUID saved with them), checks that this app saved
    /// them and may share their types, then deletes them, all or none.
    public func delete(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        guard isHealthDataAvailable else { return completion(false, HealthStoreError.healthDataUnavailable) }
        guard !samples.isEmpty else { return completion(true, nil) }
        let wanted = samples.map(\.uuid)
        fetchObjects(uuids: Set(wanted), types: Set(samples.map(\.type))) { [self] found in
            do {
                let objects = try checkedForDeleting(wanted, found: found)
                let first = samples.first?.type
                healthStore.delete(objects) { success, error in
                    completion(success, error.map { BridgeErrors.healthFlow($0, type: first) })
                }
            } catch {
                completion(false, error)
            }
        }
    }

    /// HealthFlow's delete rules (``HealthSaveRules``) over the HealthKit objects found, then those objects.
    private func checkedForDeleting(_ wanted: [UUID], found: [UUID: HKSample]) throws(HealthStoreError) -> [HKObject] {
        var skips: [HealthKitConversionSkip] = []
        let stored = found.compactMapValues { object in
            BridgeSamples.healthFlow(object, skips: &skips).map { StoredHealthSample(sample: $0, correlation: nil) }
        }
        state.withLock { $0.record(skips) }
        _ = try HealthSaveRules.checkDelete(
            wanted, appBundleIdentifier: source.bundleIdentifier, sharing: authorizationStatus(for:),
            lookup: { stored[$0] })
        return wanted.compactMap { found[$0] }
    }

    /// The HealthKit objects with these HealthFlow UUIDs, one sample query per type.
    func fetchObjects(
        uuids: Set<UUID>, types: Set<HealthObjectType>, completion: @escaping @Sendable ([UUID: HKSample]) -> Void
    ) {
        let group = DispatchGroup()
        let found = LockedState<[UUID: HKSample]>([:])
        let byUUID = BridgePredicates.healthKit(.uuids(uuids))
        for type in types {
            guard let sampleType = BridgeTypes.healthKitSample(type) else { continue }
            group.enter()
            let query = HKSampleQuery(
                sampleType: sampleType, predicate: byUUID, limit: HKObjectQueryNoLimit, sortDescriptors: nil
            ) { _, samples, _ in
                found.withLock { found in
                    for sample in samples ?? [] { found[BridgeSamples.uuid(of: sample)] = sample }
                }
                group.leave()
            }
            healthStore.execute(query)
        }
        group.notify(queue: .global()) { completion(found.withLock { $0 }) }
    }
}
