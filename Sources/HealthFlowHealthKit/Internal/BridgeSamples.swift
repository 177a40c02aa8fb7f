import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthFlow samples ⇄ HealthKit objects, both ways without loss: UUID and given unit ride in private
/// metadata keys, metadata, dates, sources, correlation members and ECG fields map one to one.
enum BridgeSamples {
    /// The HealthKit object to save for a validated HealthFlow sample (`nil` for kinds apps cannot save).
    static func healthKit(_ sample: HealthSample) -> HKSample? {
        switch sample {
        case .quantity(let sample): return healthKit(sample)
        case .category(let sample):
            guard let type = BridgeTypes.healthKit(sample.type) as? HKCategoryType else { return nil }
            return HKCategorySample(
                type: type, value: sample.value, start: sample.startDate, end: sample.endDate,
                metadata: BridgeMetadata.healthKit(
                    sample.metadata, extra: [BridgeMetadata.uuidKey: sample.uuid.uuidString]))
        case .correlation(let correlation):
            guard let type = BridgeTypes.healthKit(correlation.type) as? HKCorrelationType else { return nil }
            let members = correlation.objects.compactMap { healthKit($0) as HKSample? }
            return HKCorrelation(
                type: type, start: correlation.startDate, end: correlation.endDate, objects: Set(members),
                metadata: BridgeMetadata.healthKit(
                    correlation.metadata, extra: [BridgeMetadata.uuidKey: correlation.uuid.uuidString]))
        case .electrocardiogram, .workout, .heartbeatSeries:
            return nil
        }
    }

    private static func healthKit(_ sample: HealthQuantitySample) -> HKQuantitySample? {
        guard let type = BridgeTypes.healthKitQuantity(sample.type) else { return nil }
        return HKQuantitySample(
            type: type, quantity: BridgeTypes.quantity(sample.quantity), start: sample.startDate,
            end: sample.endDate,
            metadata: BridgeMetadata.healthKit(
                sample.metadata,
                extra: [
                    BridgeMetadata.uuidKey: sample.uuid.uuidString,
                    BridgeMetadata.unitKey: sample.quantity.unit.unitString,
                ]))
    }

    /// The HealthFlow UUID of a HealthKit object: the one saved with it, or HealthKit's own.
    static func uuid(of object: HKObject) -> UUID {
        (object.metadata?[BridgeMetadata.uuidKey] as? String).flatMap(UUID.init(uuidString:)) ?? object.uuid
    }

    /// The HealthFlow sample of a HealthKit object, or `nil` — for a kind HealthFlow does not model or an object
    /// that breaks a HealthFlow rule — with the reason in `skips`; what the sample is delivered without (a
    /// metadata value, a correlation member, a saved unit that does not fit) is listed there too.
    static func healthFlow(_ object: HKSample, skips: inout [HealthKitConversionSkip]) -> HealthSample? {
        do {
            return try convert(object, skips: &skips)
        } catch {
            skips.append(HealthKitConversionSkip(healthKitUUID: object.uuid, reason: .invalidSample(error)))
            return nil
        }
    }

    private static func convert(
        _ object: HKSample, skips: inout [HealthKitConversionSkip]
    ) throws(ValidationError) -> HealthSample? {
        guard let type = BridgeTypes.healthFlow(object.sampleType) else {
            skips.append(
                HealthKitConversionSkip(
                    healthKitUUID: object.uuid, reason: .unmodelledKind(object.sampleType.identifier)))
            return nil
        }
        let uuid = uuid(of: object)
        let source = BridgeTypes.source(object.sourceRevision.source)
        let metadata = BridgeMetadata.healthFlow(object.metadata, of: object.uuid, skips: &skips)
        switch object {
        case let sample as HKQuantitySample:
            return .quantity(try healthFlow(sample, type: type, metadata: metadata, skips: &skips))
        case let sample as HKCategorySample:
            return .category(
                try HealthCategorySample(
                    type: type, value: sample.value, start: sample.startDate, end: sample.endDate, source: source,
                    metadata: metadata, uuid: uuid))
        case let correlation as HKCorrelation:
            var members = Set<HealthQuantitySample>()
            for case let member as HKQuantitySample in correlation.objects {
                guard let memberType = BridgeTypes.healthFlow(member.sampleType) else {
                    skips.append(
                        HealthKitConversionSkip(
                            healthKitUUID: correlation.uuid, reason: .unmodelledMember(member.sampleType.identifier)))
                    continue
                }
                let memberMetadata = BridgeMetadata.healthFlow(member.metadata, of: member.uuid, skips: &skips)
                members.insert(try healthFlow(member, type: memberType, metadata: memberMetadata, skips: &skips))
            }
            return .correlation(
                try HealthCorrelation(
                    type: type, start: correlation.startDate, end: correlation.endDate, objects: members,
                    source: source, metadata: metadata, uuid: uuid))
        case let ecg as HKElectrocardiogram:
            let bpm = HealthUnit.count().unitDivided(by: .minute())
            return .electrocardiogram(
                try HealthElectrocardiogram(
                    start: ecg.startDate, end: ecg.endDate,
                    classification: HealthElectrocardiogram.Classification(rawValue: ecg.classification.rawValue)
                        ?? .unrecognized,
                    symptomsStatus: HealthElectrocardiogram.SymptomsStatus(rawValue: ecg.symptomsStatus.rawValue)
                        ?? .notSet,
                    averageHeartRate: ecg.averageHeartRate.map {
                        HealthQuantity(unit: bpm, doubleValue: $0.doubleValue(for: BridgeTypes.unit(bpm)))
                    },
                    samplingFrequency: ecg.samplingFrequency.map {
                        HealthQuantity(unit: .hertz(), doubleValue: $0.doubleValue(for: .hertz()))
                    },
                    numberOfVoltageMeasurements: ecg.numberOfVoltageMeasurements, source: source, metadata: metadata,
                    uuid: uuid))
        default:
            skips.append(
                HealthKitConversionSkip(
                    healthKitUUID: object.uuid, reason: .unmodelledKind(String(describing: Swift.type(of: object)))))
            return nil
        }
    }

    /// A quantity sample in the unit the app gave (saved beside the value) when that unit fits the quantity and
    /// the type, else in the type's canonical unit (the misfit listed in `skips`).
    private static func healthFlow(
        _ sample: HKQuantitySample, type: HealthObjectType, metadata: [MetadataKey: MetadataValue],
        skips: inout [HealthKitConversionSkip]
    ) throws(ValidationError) -> HealthQuantitySample {
        let canonical = type.canonicalUnit ?? .count()
        var unit = canonical
        if let saved = sample.metadata?[BridgeMetadata.unitKey] as? String {
            if let given = try? HealthUnit(from: saved), given.isCompatible(with: canonical),
                sample.quantity.is(compatibleWith: BridgeTypes.unit(given))
            {
                unit = given
            } else {
                skips.append(HealthKitConversionSkip(healthKitUUID: sample.uuid, reason: .unusableSavedUnit(saved)))
            }
        }
        let value = sample.quantity.doubleValue(for: BridgeTypes.unit(unit))
        return try HealthQuantitySample(
            type: type, quantity: HealthQuantity(unit: unit, doubleValue: value), start: sample.startDate,
            end: sample.endDate, source: BridgeTypes.source(sample.sourceRevision.source), metadata: metadata,
            uuid: uuid(of: sample))
    }
}
