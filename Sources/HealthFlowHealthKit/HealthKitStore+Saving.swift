import FlowKit
import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

extension HealthKitStore {
    /// Saves one sample (see `save(_:withCompletion:)` for the batch rules).
    ///
    /// ```swift
    /// store.save(.quantity(height)) { success, error in }
    /// ```
    public func save(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        save([sample], withCompletion: completion)
    }

    /// Validates every sample with HealthFlow's rules (units, dates, required metadata, shareable and
    /// authorized types, the app as source, UUIDs new to the database — looked up in HealthKit by the UUID the
    /// bridge saves with each object) and only then saves them to HealthKit, all or none.
    ///
    /// ```swift
    /// store.save([.quantity(a), .quantity(b)]) { success, error in }
    /// ```
    public func save(
        _ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let objects: [HKObject]
        do {
            objects = try checkedForSaving(samples)
        } catch {
            return completion(false, error)
        }
        let flat = samples.flatMap(SampleRules.flattened)
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

    /// HealthFlow's save checks, in HealthFlow's order (so both stores report the same first problem).
    private func checkedForSaving(_ samples: [HealthSample]) throws(HealthStoreError) -> [HKObject] {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        for sample in samples {
            do {
                try SampleRules.revalidate(sample)
            } catch {
                throw .invalidSample(error)
            }
        }
        let app = source.bundleIdentifier
        var seen = Set<UUID>()
        var objects: [HKObject] = []
        for sample in samples {
            for type in SampleRules.authorizationTypes(of: sample) {
                guard type.isShareable else { throw .typeNotShareable(type) }
                switch authorizationStatus(for: type) {
                case .notDetermined: throw .authorizationNotDetermined(type)
                case .sharingDenied: throw .authorizationDenied(type)
                case .sharingAuthorized: break
                }
            }
            let flat = SampleRules.flattened(sample)
            for object in flat where object.source.bundleIdentifier != app {
                throw .sourceMismatch(object.uuid, expected: app, actual: object.source.bundleIdentifier)
            }
            for object in flat where !seen.insert(object.uuid).inserted { throw .duplicateUUID(object.uuid) }
            guard let object = BridgeSamples.healthKit(sample) else { throw .typeNotShareable(sample.type) }
            objects.append(object)
        }
        return objects
    }

    /// Deletes one sample this app saved.
    ///
    /// ```swift
    /// store.delete(sample) { success, error in }
    /// ```
    public func delete(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        delete([sample], withCompletion: completion)
    }

    /// Finds the HealthKit objects of these samples (by the UUID saved with them), checks that this app saved
    /// them and may share their types, then deletes them, all or none.
    ///
    /// ```swift
    /// store.delete(samples) { success, error in }
    /// ```
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

    private func checkedForDeleting(_ wanted: [UUID], found: [UUID: HKSample]) throws(HealthStoreError) -> [HKObject] {
        let appSource = source.bundleIdentifier
        var seen = Set<UUID>()
        var objects: [HKObject] = []
        for uuid in wanted {
            guard let object = found[uuid] else { throw .objectNotFound(uuid) }
            if let type = BridgeTypes.healthFlow(object.sampleType) {
                let types = type.kind == .correlation ? Array(type.correlationMemberTypes.prefix(2)) : [type]
                for type in types.sorted(by: { $0.identifier < $1.identifier }) {
                    guard type.isShareable else { throw .typeNotShareable(type) }
                    switch authorizationStatus(for: type) {
                    case .notDetermined: throw .authorizationNotDetermined(type)
                    case .sharingDenied: throw .authorizationDenied(type)
                    case .sharingAuthorized: break
                    }
                }
            }
            let owner = BridgeTypes.source(object.sourceRevision.source)
            guard owner.bundleIdentifier == appSource else { throw .notSavedByThisApp(uuid, source: owner) }
            guard seen.insert(uuid).inserted else { throw .duplicateUUID(uuid) }
            objects.append(object)
        }
        return objects
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
