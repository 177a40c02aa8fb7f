import Foundation

/// Store-side checks on samples.
enum SampleRules {
    /// Re-runs the sample's own validation (samples are validated when made; a store checks again rather
    /// than trust that every path that made one did). `unitFits` remembers the type and unit pairs found to fit
    /// so far in a batch: a later sample of a known pair skips only the unit's dimension check, every other
    /// rule is checked for every sample.
    static func revalidate(_ sample: HealthSample, unitFits: inout UnitFits) throws(ValidationError) {
        switch sample {
        case .quantity(let sample):
            try revalidate(sample, unitFits: &unitFits)
        case .category(let sample):
            _ = try HealthCategorySample(
                type: sample.type, value: sample.value, start: sample.startDate, end: sample.endDate,
                source: sample.source, metadata: sample.metadata, uuid: sample.uuid)
        case .correlation(let sample):
            for member in sample.objects { try revalidate(member, unitFits: &unitFits) }
            _ = try HealthCorrelation(
                type: sample.type, start: sample.startDate, end: sample.endDate, objects: sample.objects,
                source: sample.source, metadata: sample.metadata, uuid: sample.uuid)
        case .electrocardiogram(let sample):
            _ = try HealthElectrocardiogram(
                start: sample.startDate, end: sample.endDate, classification: sample.classification,
                symptomsStatus: sample.symptomsStatus, averageHeartRate: sample.averageHeartRate,
                samplingFrequency: sample.samplingFrequency,
                numberOfVoltageMeasurements: sample.numberOfVoltageMeasurements, source: sample.source,
                metadata: sample.metadata, uuid: sample.uuid)
        case .workout(let sample):
            _ = try sample.revalidated()
        case .heartbeatSeries(let sample):
            _ = try HealthHeartbeatSeries(
                start: sample.startDate, end: sample.endDate, count: sample.count, source: sample.source,
                metadata: sample.metadata, uuid: sample.uuid)
        }
    }

    /// ``revalidate(_:unitFits:)`` for a quantity sample.
    static func revalidate(_ sample: HealthQuantitySample, unitFits: inout UnitFits) throws(ValidationError) {
        let fit = unitFits.fit(of: sample.type, in: sample.quantity.unit)
        try HealthQuantitySample.validate(
            type: sample.type, quantity: sample.quantity, start: sample.startDate, end: sample.endDate,
            metadata: sample.metadata, fit)
        if fit == nil { unitFits.remember(sample.type, in: sample.quantity.unit) }
    }

    /// The sample followed by its members (a correlation's members are stored and indexed as samples of
    /// their own types), members in a fixed order.
    static func flattened(_ sample: HealthSample) -> [HealthSample] {
        guard case .correlation(let correlation) = sample else { return [sample] }
        return [sample] + members(of: correlation).map(HealthSample.quantity)
    }

    /// ``flattened(_:)`` handed to `body` one object at a time, with `nil` for the sample itself and the
    /// correlation's UUID for a member; allocates only for a correlation.
    static func forEachFlattened<Failure: Error>(
        _ sample: HealthSample, _ body: (HealthSample, _ correlation: UUID?) throws(Failure) -> Void
    ) throws(Failure) {
        try body(sample, nil)
        guard case .correlation(let correlation) = sample else { return }
        for member in members(of: correlation) { try body(.quantity(member), correlation.uuid) }
    }

    private static func members(of correlation: HealthCorrelation) -> [HealthQuantitySample] {
        correlation.objects.sorted {
            ($0.type.identifier, $0.uuid.uuidString) < ($1.type.identifier, $1.uuid.uuidString)
        }
    }

    /// The types whose sharing authorization saving or deleting `sample` needs: its own type, or for a
    /// correlation (never authorized itself) its members' types; sorted, so errors are deterministic.
    static func authorizationTypes(of sample: HealthSample) -> [HealthObjectType] {
        let types: Set<HealthObjectType>
        if case .correlation(let correlation) = sample {
            types = Set(correlation.objects.map(\.type))
        } else {
            types = [sample.type]
        }
        return types.sorted { $0.identifier < $1.identifier }
    }
}

/// The quantity type and unit pairs a batch has shown to fit (the unit measures what the type measures), with
/// whether the type allows negative values: what ``SampleRules/revalidate(_:unitFits:)`` needs to skip a
/// repeated dimension check. Remembers at most ``capacity`` pairs, compared by value (a batch names few).
struct UnitFits {
    static let capacity = 8
    private var known: [(type: HealthObjectType, unit: HealthUnit, allowsNegative: Bool)] = []

    /// Whether `type` allows negative values, when `unit` is known to fit it; `nil` when not known.
    func fit(of type: HealthObjectType, in unit: HealthUnit) -> Bool? {
        // Identity first: a batch's samples usually share one type and one unit.
        for index in known.indices
        where known[index].type.isIdentical(to: type) && known[index].unit.isIdentical(to: unit) {
            return known[index].allowsNegative
        }
        for index in known.indices where known[index].type == type && known[index].unit == unit {
            return known[index].allowsNegative
        }
        return nil
    }

    /// Remembers that `unit` fits `type` (call after a full check passed).
    mutating func remember(_ type: HealthObjectType, in unit: HealthUnit) {
        guard known.count < Self.capacity else { return }
        known.append((type, unit, type.allowsNegativeValues))
    }
}

/// The fields a snapshot reader checks of a sample, read in one switch: each of ``HealthSample``'s accessors copies
/// the whole sample (its type's, unit's, source's and metadata's references) to read one field.
struct SampleKeys {
    let uuid: UUID
    let typeIdentifier: String
    let bundleIdentifier: String
    /// Start and end, as seconds since the reference date.
    let start: Double
    let end: Double

    init(_ sample: HealthSample) {
        switch sample {
        case .quantity(let sample):
            self.init(sample.uuid, sample.type.identifier, sample.source, sample.startDate, sample.endDate)
        case .category(let sample):
            self.init(sample.uuid, sample.type.identifier, sample.source, sample.startDate, sample.endDate)
        case .correlation(let sample):
            self.init(sample.uuid, sample.type.identifier, sample.source, sample.startDate, sample.endDate)
        case .electrocardiogram(let sample):
            self.init(sample.uuid, sample.type.identifier, sample.source, sample.startDate, sample.endDate)
        case .workout(let sample):
            self.init(sample.uuid, sample.type.identifier, sample.source, sample.startDate, sample.endDate)
        case .heartbeatSeries(let sample):
            self.init(sample.uuid, sample.type.identifier, sample.source, sample.startDate, sample.endDate)
        }
    }

    private init(_ uuid: UUID, _ typeIdentifier: String, _ source: HealthSource, _ start: Date, _ end: Date) {
        self.uuid = uuid
        self.typeIdentifier = typeIdentifier
        self.bundleIdentifier = source.bundleIdentifier
        self.start = start.timeIntervalSinceReferenceDate
        self.end = end.timeIntervalSinceReferenceDate
    }
}
