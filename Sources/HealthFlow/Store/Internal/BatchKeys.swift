import Foundation

/// What the save path reads of a batch's objects — each sample, and after a correlation its members in the
/// order ``SampleRules/flattened(_:)`` gives — read from each sample once, so the rules and the insertion
/// that follow never copy a sample to read a field (each copy of a ``HealthSample`` retains its type, unit,
/// source and metadata, and a copy of an enum whose payloads hold `Date`s and `UUID`s goes through value
/// witnesses).
struct BatchKeys: Sendable {
    struct Object {
        let uuid: UUIDKey
        let type: HealthObjectType
        /// Start and end, as seconds since the reference date.
        let start: Double
        let end: Double
        /// Whether the source's bundle identifier is the owner's the keys were read for.
        let isOwned: Bool
        /// The position in the batch of the sample this object is, or (a member) belongs to.
        let sample: Int
        /// The correlation holding this object, for a member.
        let correlation: UUID?

        /// The keys of a correlation's member or of a sample that is not a quantity sample.
        init(_ object: HealthSample, owner: String, sample: Int, correlation: UUID?) {
            switch object {
            case .quantity(let object):
                self.init(object, owner: owner, sample: sample, correlation: correlation)
            case .category(let object):
                self.init(
                    object.uuid, object.type, object.startDate, object.endDate, object.source, owner: owner,
                    sample: sample, correlation: correlation)
            case .correlation(let object):
                self.init(
                    object.uuid, object.type, object.startDate, object.endDate, object.source, owner: owner,
                    sample: sample, correlation: correlation)
            case .electrocardiogram(let object):
                self.init(
                    object.uuid, object.type, object.startDate, object.endDate, object.source, owner: owner,
                    sample: sample, correlation: correlation)
            case .workout(let object):
                self.init(
                    object.uuid, object.type, object.startDate, object.endDate, object.source, owner: owner,
                    sample: sample, correlation: correlation)
            case .heartbeatSeries(let object):
                self.init(
                    object.uuid, object.type, object.startDate, object.endDate, object.source, owner: owner,
                    sample: sample, correlation: correlation)
            }
        }

        init(_ object: HealthQuantitySample, owner: String, sample: Int, correlation: UUID?) {
            self.init(
                object.uuid, object.type, object.startDate, object.endDate, object.source, owner: owner,
                sample: sample, correlation: correlation)
        }

        private init(
            _ uuid: UUID, _ type: HealthObjectType, _ start: Date, _ end: Date, _ source: HealthSource,
            owner: String, sample: Int, correlation: UUID?
        ) {
            self.uuid = UUIDKey(uuid)
            self.type = type
            self.start = start.timeIntervalSinceReferenceDate
            self.end = end.timeIntervalSinceReferenceDate
            self.isOwned = source.bundleIdentifier == owner
            self.sample = sample
            self.correlation = correlation
        }
    }

    /// The bundle identifier `isOwned` compares with.
    let owner: String
    private(set) var objects: [Object] = []

    /// Empty keys for `owner`, with room for `capacity` objects.
    init(owner: String, capacity: Int) {
        self.owner = owner
        objects.reserveCapacity(capacity)
    }

    /// The keys of `samples`, with `isOwned` telling whether an object's source is `owner`.
    init(_ samples: [HealthSample], owner: String) {
        self.init(owner: owner, capacity: samples.count)
        for index in samples.indices { append(samples[index], at: index) }
    }

    /// Appends the keys of `sample`, at position `position` of its batch (and of its members).
    mutating func append(_ sample: HealthSample, at position: Int) {
        SampleRules.forEachFlattened(sample) { object, correlation in
            objects.append(Object(object, owner: owner, sample: position, correlation: correlation))
        }
    }

    /// Appends the keys of a quantity sample at position `position` of its batch.
    mutating func append(_ sample: HealthQuantitySample, at position: Int) {
        objects.append(Object(sample, owner: owner, sample: position, correlation: nil))
    }

    /// The object of `samples` (the batch the keys were read from) that `objects[position]` describes.
    func object(at position: Int, in samples: [HealthSample]) -> HealthSample {
        let keys = objects[position]
        guard keys.correlation != nil else { return samples[keys.sample] }
        var found: HealthSample?
        SampleRules.forEachFlattened(samples[keys.sample]) { object, _ in
            if found == nil, UUIDKey(object.uuid) == keys.uuid { found = object }
        }
        return found ?? samples[keys.sample]
    }
}
