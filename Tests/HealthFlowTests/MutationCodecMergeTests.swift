import Foundation
import Testing

@testable import HealthFlow

/// A change the journal wrote as several records reads back as the one change it was: the parts of an insert or
/// a delete join in order, and parts of different kinds are not one change.
@Suite struct MutationCodecMergeTests {
    static func heights(_ count: Int) throws -> [HealthSample] {
        try (0..<count).map { index in
            .quantity(
                try HealthQuantitySample(
                    type: .height, quantity: HealthQuantity(unit: .meter(), doubleValue: 1.5 + Double(index) / 100),
                    start: Fixture.noon.addingTimeInterval(Double(index)),
                    end: Fixture.noon.addingTimeInterval(Double(index)), source: Fixture.source))
        }
    }

    @Test func thePartsOfOneInsertOrDeleteJoinInOrder() throws {
        let samples = try Self.heights(5)
        #expect(
            MutationCodec.merge([.insert(Array(samples[..<2])), .insert(Array(samples[2...]))]) == .insert(samples))
        let uuids = samples.map(\.uuid)
        #expect(
            MutationCodec.merge([.delete([uuids[0]]), .delete(Array(uuids[1..<4])), .delete([uuids[4]])])
                == .delete(uuids))
        #expect(MutationCodec.merge([.insert(samples)]) == .insert(samples))
        #expect(MutationCodec.merge([]) == nil)
    }

    @Test func partsOfDifferentKindsAreNotOneChange() throws {
        let samples = try Self.heights(2)
        #expect(MutationCodec.merge([.insert(samples), .delete([samples[0].uuid])]) == nil)
        #expect(MutationCodec.merge([.delete([samples[0].uuid]), .insert(samples)]) == nil)
    }
}
