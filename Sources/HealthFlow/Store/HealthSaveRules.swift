import Foundation

/// HealthKit's rules for saving and deleting, in one place: every store checks a batch here before it
/// changes anything, so all stores refuse the same batch with the same first error.
///
/// The checks run in a fixed order: every sample valid (``validate(_:)``), then sample by sample the types
/// it needs (its own, or a correlation's members') shareable and sharing authorized, every object the app's
/// own, and no UUID repeated in the batch or already stored.
public enum HealthSaveRules {
    /// Re-checks each sample's own rules (unit compatible with the type, finite values, end not before start,
    /// required metadata, category values, a correlation's members); samples are checked when made, and a
    /// store checks again rather than trust that every path that made one did.
    /// - Throws: ``HealthStoreError/invalidSample(_:)`` for the first invalid sample.
    /// - Complexity: O(n); a unit's dimension is computed once per distinct type and unit in the batch.
    public static func validate(_ samples: [HealthSample]) throws(HealthStoreError) {
        _ = try validate(samples, keyingFor: "")
    }

    /// ``validate(_:)``, reading each sample once: returns the batch's keys, with `isOwned` telling whether
    /// an object's source is `owner`.
    static func validate(_ samples: [HealthSample], keyingFor owner: String) throws(HealthStoreError) -> BatchKeys {
        var unitFits = UnitFits()
        var keys = BatchKeys(owner: owner, capacity: samples.count)
        // Indices rather than `for sample in samples`: iterating copies each (large) sample.
        for index in samples.indices {
            do {
                if case .quantity(let sample) = samples[index] {
                    try SampleRules.revalidate(sample, unitFits: &unitFits)
                    keys.append(sample, at: index)
                } else {
                    try SampleRules.revalidate(samples[index], unitFits: &unitFits)
                    keys.append(samples[index], at: index)
                }
            } catch {
                throw .invalidSample(error)
            }
        }
        return keys
    }

    /// Checks that the app may save `samples` (already validated) as one batch.
    /// - Parameters:
    ///   - samples: The batch; correlations with their members.
    ///   - appBundleIdentifier: The app's bundle identifier: every object's source must carry it.
    ///   - sharing: The sharing status of a type.
    ///   - isStored: Whether the store holds an object with a UUID; `nil` when the store checks that itself
    ///     (a store that must ask another database, after these checks).
    /// - Throws: ``HealthStoreError/typeNotShareable(_:)``, ``HealthStoreError/authorizationNotDetermined(_:)``,
    ///   ``HealthStoreError/authorizationDenied(_:)``, ``HealthStoreError/sourceMismatch(_:expected:actual:)`` or
    ///   ``HealthStoreError/duplicateUUID(_:)``.
    public static func checkSave(
        _ samples: [HealthSample], appBundleIdentifier: String,
        sharing: (HealthObjectType) -> AuthorizationStatus, isStored: ((UUID) -> Bool)?
    ) throws(HealthStoreError) {
        let isStored = isStored ?? { _ in false }
        try checkSave(
            samples, keys: BatchKeys(samples, owner: appBundleIdentifier), appBundleIdentifier: appBundleIdentifier,
            sharing: sharing, isStored: { isStored($0.uuid) })
    }

    /// ``checkSave(_:appBundleIdentifier:sharing:isStored:)`` over the batch's keys, read for the app
    /// (``validate(_:keyingFor:)``).
    static func checkSave(
        _ samples: [HealthSample], keys: BatchKeys, appBundleIdentifier: String,
        sharing: (HealthObjectType) -> AuthorizationStatus, isStored: (UUIDKey) -> Bool
    ) throws(HealthStoreError) {
        let objects = keys.objects
        var seen = UUIDTable<Void>(minimumCapacity: objects.count)
        // The last type found shareable and authorized: a run of samples of one type asks once.
        var authorized: HealthObjectType?
        var position = 0
        while position < objects.count {
            guard objects[position].type.kind == .correlation else {
                if objects[position].type != authorized {
                    try checkSharing(of: objects[position].type, sharing: sharing)
                    authorized = objects[position].type
                }
                try checkSource(position, of: samples, keys, appBundleIdentifier: appBundleIdentifier)
                try checkUnique(objects[position].uuid, seen: &seen, isStored: isStored)
                position += 1
                continue
            }
            // A correlation and its members: sharing for the members' types, then every source, then every UUID.
            try checkSharing(of: samples[objects[position].sample], sharing: sharing)
            var end = position + 1
            while end < objects.count, objects[end].correlation != nil { end += 1 }
            for object in position..<end {
                try checkSource(object, of: samples, keys, appBundleIdentifier: appBundleIdentifier)
            }
            for object in position..<end { try checkUnique(objects[object].uuid, seen: &seen, isStored: isStored) }
            position = end
        }
    }

    private static func checkSource(
        _ position: Int, of samples: [HealthSample], _ keys: BatchKeys, appBundleIdentifier: String
    ) throws(HealthStoreError) {
        guard keys.objects[position].isOwned else {
            let object = keys.object(at: position, in: samples)
            throw .sourceMismatch(
                object.uuid, expected: appBundleIdentifier, actual: object.source.bundleIdentifier)
        }
    }

    /// Checks that `samples` (already validated) may be added from another app or device: no UUID repeated in
    /// the batch or already stored.
    /// - Throws: ``HealthStoreError/duplicateUUID(_:)``.
    public static func checkIngest(_ samples: [HealthSample], isStored: (UUID) -> Bool) throws(HealthStoreError) {
        try checkIngest(BatchKeys(samples, owner: ""), isStored: { isStored($0.uuid) })
    }

    /// ``checkIngest(_:isStored:)`` over the batch's keys.
    static func checkIngest(_ keys: BatchKeys, isStored: (UUIDKey) -> Bool) throws(HealthStoreError) {
        var seen = UUIDTable<Void>(minimumCapacity: keys.objects.count)
        for object in keys.objects { try checkUnique(object.uuid, seen: &seen, isStored: isStored) }
    }

    /// Checks that the app may delete the samples with these UUIDs, and returns the stored samples it deletes.
    /// - Parameters:
    ///   - uuids: The samples to delete, in the caller's order.
    ///   - appBundleIdentifier: The app: it deletes only what it saved.
    ///   - sharing: The sharing status of a type.
    ///   - lookup: The stored object with a UUID.
    /// - Throws: ``HealthStoreError/objectNotFound(_:)``, a sharing error (as
    ///   ``checkSave(_:appBundleIdentifier:sharing:isStored:)``),
    ///   ``HealthStoreError/notSavedByThisApp(_:source:)``, ``HealthStoreError/memberOfCorrelation(_:correlation:)``
    ///   (delete the correlation instead) or ``HealthStoreError/duplicateUUID(_:)``.
    public static func checkDelete(
        _ uuids: [UUID], appBundleIdentifier: String, sharing: (HealthObjectType) -> AuthorizationStatus,
        lookup: (UUID) -> StoredHealthSample?
    ) throws(HealthStoreError) -> [HealthSample] {
        var seen = Set<UUID>()
        var targets: [HealthSample] = []
        for uuid in uuids {
            guard let stored = lookup(uuid) else { throw .objectNotFound(uuid) }
            let sample = stored.sample
            try checkSharing(of: sample, sharing: sharing)
            guard sample.source.bundleIdentifier == appBundleIdentifier else {
                throw .notSavedByThisApp(sample.uuid, source: sample.source)
            }
            if let correlation = stored.correlation {
                throw .memberOfCorrelation(sample.uuid, correlation: correlation)
            }
            guard seen.insert(sample.uuid).inserted else { throw .duplicateUUID(sample.uuid) }
            targets.append(sample)
        }
        return targets
    }

    /// The sample followed by its members, when it is a correlation (members are stored, indexed and deleted
    /// as samples of their own types), members in a fixed order.
    public static func flattened(_ sample: HealthSample) -> [HealthSample] {
        SampleRules.flattened(sample)
    }

    /// Every type `sample` needs sharing for: shareable, and sharing authorized.
    private static func checkSharing(
        of sample: HealthSample, sharing: (HealthObjectType) -> AuthorizationStatus
    ) throws(HealthStoreError) {
        for type in SampleRules.authorizationTypes(of: sample) { try checkSharing(of: type, sharing: sharing) }
    }

    /// `type` shareable, and sharing authorized.
    private static func checkSharing(
        of type: HealthObjectType, sharing: (HealthObjectType) -> AuthorizationStatus
    ) throws(HealthStoreError) {
        guard type.isShareable else { throw .typeNotShareable(type) }
        switch sharing(type) {
        case .notDetermined: throw .authorizationNotDetermined(type)
        case .sharingDenied: throw .authorizationDenied(type)
        case .sharingAuthorized: break
        }
    }

    private static func checkUnique(
        _ uuid: UUIDKey, seen: inout UUIDTable<Void>, isStored: (UUIDKey) -> Bool
    ) throws(HealthStoreError) {
        guard !isStored(uuid), seen.insertNew(uuid, ()) else { throw .duplicateUUID(uuid.uuid) }
    }
}

/// A stored sample as the delete rules see it: the sample, and the correlation holding it when it is a member.
public struct StoredHealthSample: Sendable {
    /// The sample as stored.
    public let sample: HealthSample
    /// The UUID of the correlation it belongs to, or `nil` for a sample saved on its own.
    public let correlation: UUID?

    /// A stored sample.
    public init(sample: HealthSample, correlation: UUID?) {
        self.sample = sample
        self.correlation = correlation
    }
}
