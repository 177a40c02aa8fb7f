import Foundation
import Testing

@testable import HealthFlow

/// The store's UUID table answers as a dictionary does, whatever the order of insertions, replacements and
/// removals (removal moves entries back within their runs, across the end of the buckets too).
struct UUIDTableTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomInsertionsReplacementsAndRemovalsAnswerAsADictionary(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var table = UUIDTable<Int>()
        var reference: [UUID: Int] = [:]
        // Few distinct UUIDs, so that operations often meet a UUID already there; the table grows and shrinks
        // around its resizing points and its runs wrap around the end.
        let uuids = (0..<600).map { _ in UUID.random(using: &random) }
        for step in 0..<20_000 {
            let uuid = uuids[Int.random(in: 0..<uuids.count, using: &random)]
            let key = UUIDKey(uuid)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                #expect(table.updateValue(step, forKey: key) == reference.updateValue(step, forKey: uuid))
            case 1:
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: uuid))
            default:
                #expect(table.insertNew(key, step) == (reference[uuid] == nil))
                if reference[uuid] == nil { reference[uuid] = step }
            }
            #expect(table.count == reference.count)
        }
        for uuid in uuids {
            #expect(table[UUIDKey(uuid)] == reference[uuid])
            #expect(table.contains(UUIDKey(uuid)) == (reference[uuid] != nil))
        }
        var listed: [UUID: Int] = [:]
        table.forEach { key, value in listed[key.uuid] = value }
        #expect(listed == reference)
    }

    @Test func twoHundredThousandEntriesAreAllFoundAndRemovingHalfKeepsTheOtherHalf() {
        var random = SeededGenerator(seed: 42)
        let uuids = (0..<200_000).map { _ in UUIDKey(UUID.random(using: &random)) }
        var table = UUIDTable<Int>()
        for (position, key) in uuids.enumerated() { table[key] = position }
        #expect(table.count == uuids.count)
        for (position, key) in uuids.enumerated() where position % 2 == 0 { table[key] = nil }
        #expect(table.count == uuids.count / 2)
        let found = uuids.indices.allSatisfy { table[uuids[$0]] == ($0 % 2 == 0 ? nil : $0) }
        #expect(found)
    }

    @Test func aKeyTurnsBackIntoItsUUIDAndHashesAsTheUUIDCompares() {
        var random = SeededGenerator(seed: 5)
        let uuid = UUID.random(using: &random)
        #expect(UUIDKey(uuid).uuid == uuid)
        #expect(UUIDKey(uuid) == UUIDKey(UUID(uuidString: uuid.uuidString)!))
        #expect(UUIDKey(uuid) != UUIDKey(UUID.random(using: &random)))
        #expect(UUIDKey(uuid).description == uuid.uuidString)
        #expect(UUIDKey(uuid).hashValue == UUIDKey(uuid).hashValue)
    }

    @Test func reservingCapacityKeepsEveryEntry() {
        var random = SeededGenerator(seed: 9)
        var table = UUIDTable<Int>(minimumCapacity: 3)
        let keys = (0..<100).map { _ in UUIDKey(UUID.random(using: &random)) }
        for (position, key) in keys.enumerated() { table[key] = position }
        table.reserveCapacity(10_000)
        #expect(keys.indices.allSatisfy { table[keys[$0]] == $0 })
        #expect(table.count == 100)
    }
}
