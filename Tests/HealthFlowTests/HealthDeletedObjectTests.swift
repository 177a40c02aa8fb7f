import Foundation
import HealthFlow
import Testing

struct HealthDeletedObjectTests {
    @Test func keepsTheUUIDAndSyncMetadataOfTheDeletedSample() throws {
        let sample = try Fixture.sample(
            .dietaryWater, 250, "mL",
            metadata: [.syncIdentifier: "drink-7", .syncVersion: 2, .externalUUID: "E-7", .wasUserEntered: true])
        let tombstone = HealthDeletedObject(deleting: .quantity(sample))
        #expect(tombstone.uuid == sample.uuid)
        #expect(tombstone.metadata == [.syncIdentifier: "drink-7", .syncVersion: 2, .externalUUID: "E-7"])
    }

    @Test func isAPlainCodableValue() throws {
        let tombstone = HealthDeletedObject(uuid: UUID(), metadata: [.syncIdentifier: "x", .syncVersion: 1])
        let data = try JSONEncoder().encode(tombstone)
        #expect(try JSONDecoder().decode(HealthDeletedObject.self, from: data) == tombstone)
        #expect(HealthDeletedObject(uuid: tombstone.uuid).metadata.isEmpty)
    }
}
