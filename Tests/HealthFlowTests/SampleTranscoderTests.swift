import Foundation
import Testing

@testable import HealthFlow

/// ``SampleTranscoder``, which merges of segments copy rows with: a payload copied sample by sample is the
/// payload encoding the samples writes, for every kind and field; damage is a failure, never a wrong copy.
struct SampleTranscoderTests {
    /// Samples of every kind with every optional field both present and absent, and metadata of every value kind.
    static func everyKind() throws -> [HealthSample] {
        var samples: [HealthSample] = []
        for operation in try DurableFixture.workload(seed: 13) {
            switch operation {
            case .save(let batch), .ingest(let batch): samples += batch
            default: break
            }
        }
        let metadata: [MetadataKey: MetadataValue] = [
            "Text": "Zoë’s", "Number": 2.5, "When": .date(Fixture.noon),
            "Dose": .quantity(try Fixture.quantity(3, "mg")),
        ]
        samples.append(
            .quantity(
                try HealthQuantitySample(
                    type: .bodyMass, quantity: try Fixture.quantity(70.2, "kg"), start: Fixture.noon, end: Fixture.noon,
                    source: Fixture.watch, metadata: metadata)))
        for (rate, frequency) in [(64.0, 512.0), (nil, 512.0), (64.0, nil), (nil, nil)] as [(Double?, Double?)] {
            samples.append(
                .electrocardiogram(
                    try HealthElectrocardiogram(
                        start: Fixture.noon, end: Fixture.noon.addingTimeInterval(30), classification: .sinusRhythm,
                        symptomsStatus: .present,
                        averageHeartRate: rate.map { HealthQuantity(unit: Fixture.perMinute, doubleValue: $0) },
                        samplingFrequency: frequency.map { HealthQuantity(unit: .hertz(), doubleValue: $0) },
                        numberOfVoltageMeasurements: 15_360, source: Fixture.watch)))
        }
        samples.append(try WorkoutStoreTests.run(hours: 1))
        samples.append(
            .workout(
                try HealthWorkout(activityType: .yoga, start: Fixture.noon, end: Fixture.noon, source: Fixture.source)))
        samples.append(.heartbeatSeries(try HeartbeatSeriesTests.series(count: 90)))
        return samples
    }

    @Test func aPayloadCopiedSampleBySampleIsTheEncodedPayload() throws {
        let samples = try Self.everyKind()
        #expect(Set(samples.map { "\($0.type.kind)" }).count >= 4)
        var encoded = BinaryWriter()
        for sample in samples { SampleCodec.encode(sample, into: &encoded) }
        let bytes = encoded.takeBytes()
        var reader = BinaryReader(bytes, range: bytes.indices)
        var copy = BinaryWriter()
        for sample in samples {
            let copied = try SampleTranscoder.copy(from: &reader, into: &copy)
            #expect(copied.start == sample.startDate.timeIntervalSinceReferenceDate)
            #expect(copied.end == sample.endDate.timeIntervalSinceReferenceDate)
            #expect((copied.typeIdentifier ?? copied.fixedType?.identifier) == sample.type.identifier)
        }
        try reader.expectEnd()
        #expect(copy.takeBytes() == bytes)
    }

    /// A copy starting mid-payload (a merge takes rows of one block into another) writes strings the new payload
    /// has not met in full, so the copy decodes alone.
    @Test func aCopyIntoAnotherPayloadDecodesToTheSameSample() throws {
        let samples = try Self.everyKind()
        var encoded = BinaryWriter()
        for sample in samples { SampleCodec.encode(sample, into: &encoded) }
        let bytes = encoded.takeBytes()
        var reader = BinaryReader(bytes, range: bytes.indices)
        for sample in samples {
            var alone = BinaryWriter()
            _ = try SampleTranscoder.copy(from: &reader, into: &alone)
            let copy = alone.takeBytes()
            var copyReader = BinaryReader(copy, range: copy.indices)
            var decoder = SampleDecoder()
            #expect(try decoder.sample(from: &copyReader) == sample)
        }
    }

    /// Every cut of the payload and an unknown kind byte fail to copy, without trapping.
    @Test func damageFailsTheCopy() throws {
        let samples = try Self.everyKind()
        var encoded = BinaryWriter()
        for sample in samples { SampleCodec.encode(sample, into: &encoded) }
        let bytes = encoded.takeBytes()
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            var reader = BinaryReader(bytes, range: 0..<cut)
            var copy = BinaryWriter()
            #expect(throws: BinaryReader.Failure.self) {
                for _ in samples { _ = try SampleTranscoder.copy(from: &reader, into: &copy) }
            }
        }
        var unknown = bytes
        unknown[0] = 9
        var reader = BinaryReader(unknown, range: unknown.indices)
        var copy = BinaryWriter()
        #expect(throws: BinaryReader.Failure.self) { _ = try SampleTranscoder.copy(from: &reader, into: &copy) }
    }
}
