/// Store-side checks on samples.
enum SampleRules {
    /// Re-runs the sample's own validation (samples are validated when made; a store checks again rather
    /// than trust that every path that made one did).
    static func revalidate(_ sample: HealthSample) throws(ValidationError) {
        switch sample {
        case .quantity(let sample):
            _ = try HealthQuantitySample(
                type: sample.type, quantity: sample.quantity, start: sample.startDate, end: sample.endDate,
                source: sample.source, metadata: sample.metadata, uuid: sample.uuid)
        case .category(let sample):
            _ = try HealthCategorySample(
                type: sample.type, value: sample.value, start: sample.startDate, end: sample.endDate,
                source: sample.source, metadata: sample.metadata, uuid: sample.uuid)
        case .correlation(let sample):
            for member in sample.objects { try revalidate(.quantity(member)) }
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
        }
    }

    /// The sample followed by its members (a correlation's members are stored and indexed as samples of
    /// their own types), members in a fixed order.
    static func flattened(_ sample: HealthSample) -> [HealthSample] {
        guard case .correlation(let correlation) = sample else { return [sample] }
        let members = correlation.objects.sorted {
            ($0.type.identifier, $0.uuid.uuidString) < ($1.type.identifier, $1.uuid.uuidString)
        }
        return [sample] + members.map(HealthSample.quantity)
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
