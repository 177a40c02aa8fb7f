import Foundation
import Testing

@testable import HealthFlow

/// ``Dictionary/forEachInKeyOrder(_:)``: every entry once, in the order of the keys' raw values, whatever the
/// dictionary's size — sorted on the stack up to 32 entries, as an array beyond.
struct MetadataKeyOrderTests {
    /// Keys that differ late (a long shared prefix), early, by length, by case and outside ASCII.
    private static func keys(_ count: Int, seed: UInt64) -> [MetadataKey] {
        var generator = SeededGenerator(seed: seed)
        let stems = ["HKMetadataKeySync", "HK", "HealthFlowExport", "zeta", "Émile", "émile", "日本", "a", "A", ""]
        var keys: Set<String> = []
        while keys.count < count {
            let stem = stems[Int.random(in: 0..<stems.count, using: &generator)]
            keys.insert(stem + String(Int.random(in: 0..<1_000, using: &generator)))
        }
        return keys.map { MetadataKey(rawValue: $0) }
    }

    private static func visited(_ metadata: [MetadataKey: MetadataValue]) -> [(MetadataKey, MetadataValue)] {
        var visited: [(MetadataKey, MetadataValue)] = []
        metadata.forEachInKeyOrder { visited.append(($0, $1)) }
        return visited
    }

    @Test(arguments: [0, 1, 2, 3, 7, 31, 32, 33, 100])
    func entriesComeOnceEachInTheOrderOfTheirKeys(count: Int) {
        for seed in 1...20 {
            let keys = Self.keys(count, seed: UInt64(seed * 1_000 + count))
            let metadata = Dictionary(
                uniqueKeysWithValues: keys.enumerated().map { ($1, MetadataValue.number(Double($0))) })
            let visited = Self.visited(metadata)
            let expected = metadata.sorted { $0.key.rawValue < $1.key.rawValue }
            #expect(visited.map(\.0) == expected.map(\.key))
            #expect(visited.map(\.1) == expected.map(\.value))
        }
    }

    @Test func anErrorThrownByTheBodyStopsTheVisitAtThatEntry() {
        struct Stop: Error {}
        let metadata: [MetadataKey: MetadataValue] = [
            MetadataKey(rawValue: "b"): .string("2"), MetadataKey(rawValue: "a"): .string("1"),
            MetadataKey(rawValue: "c"): .string("3"),
        ]
        var seen: [String] = []
        #expect(throws: Stop.self) {
            try metadata.forEachInKeyOrder { key, _ in
                seen.append(key.rawValue)
                if key.rawValue == "b" { throw Stop() }
            }
        }
        #expect(seen == ["a", "b"])
    }
}
