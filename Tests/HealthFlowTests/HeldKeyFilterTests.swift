import Foundation
import Testing

@testable import HealthFlow

/// ``HeldKeyFilter``: a superset of every key added, by building or after, that rules out most other keys.
struct HeldKeyFilterTests {
    private static func keys(_ count: Int, seed: UInt64) -> [UUIDKey] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UUIDKey(UUID.random(using: &generator)) }
    }

    private static func falsePositives(_ filter: HeldKeyFilter, among keys: [UUIDKey]) -> Int {
        keys.count { filter.mayContain(BloomFilter.Probe($0)) }
    }

    @Test func everyKeyAddedByBuildingOrAfterIsMaybeHeldAndFewOthersAre() {
        let filter = HeldKeyFilter()
        let built = Self.keys(40_000, seed: 1)
        let added = Self.keys(210_000, seed: 2)
        filter.build(keyCount: built.count) { add in built.forEach(add) }
        for key in added { filter.insert(key) }
        #expect(built.allSatisfy { filter.mayContain(BloomFilter.Probe($0)) })
        #expect(added.allSatisfy { filter.mayContain(BloomFilter.Probe($0)) })
        // Three levels (80,000 keys, twice those built; 160,000; 320,000), each about 0.12 % false positives when full.
        #expect(filter.levelCount == 3)
        let others = Self.falsePositives(filter, among: Self.keys(100_000, seed: 3))
        #expect(others < 600, "\(others) of 100,000 absent keys read as held")
        #expect(filter.bytes <= (built.count + added.count) * 4)
    }

    @Test func sequentialKeysSpreadAsRandomOnesDo() {
        let filter = HeldKeyFilter()
        let held = (0..<60_000).map { UUIDKey(high: 7, low: UInt64($0)) }
        filter.build(keyCount: 0) { add in held.forEach(add) }
        #expect(held.allSatisfy { filter.mayContain(BloomFilter.Probe($0)) })
        let others = Self.falsePositives(filter, among: (60_000..<160_000).map { UUIDKey(high: 7, low: UInt64($0)) })
        #expect(others < 600, "\(others) of 100,000 absent sequential keys read as held")
    }

    @Test func beforeItIsBuiltEveryKeyMayBeHeldAndInsertionsWaitForTheBuild() {
        let filter = HeldKeyFilter()
        let early = Self.keys(10, seed: 4)
        for key in early { filter.insert(key) }
        #expect(!filter.isBuilt)
        #expect(filter.bytes == 0)
        #expect(Self.falsePositives(filter, among: Self.keys(100, seed: 5)) == 100)
        filter.build(keyCount: 0) { _ in }
        #expect(filter.isBuilt)
        // The keys inserted before the build are the build's to add: the store reads them where it keeps them.
        #expect(Self.falsePositives(filter, among: early) == 0)
    }

    private struct Damage: Error {}

    @Test func aBuildThatFailsLeavesTheFilterUnbuiltAndIsTriedAgain() throws {
        let filter = HeldKeyFilter()
        let keys = Self.keys(1_000, seed: 6)
        #expect(throws: Damage.self) {
            try filter.build(keyCount: keys.count) { (add: (UUIDKey) -> Void) throws(Damage) in
                keys.prefix(500).forEach(add)
                throw Damage()
            }
        }
        #expect(!filter.isBuilt)
        #expect(filter.mayContain(BloomFilter.Probe(keys[999])))
        filter.build(keyCount: keys.count) { add in keys.forEach(add) }
        #expect(keys.allSatisfy { filter.mayContain(BloomFilter.Probe($0)) })
        #expect(filter.levelCount == 1)
    }
}
