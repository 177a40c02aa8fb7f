import Foundation
import HealthFlow
import Testing

struct SeededRandomNumberGeneratorTests {
    @Test func sameSeedGivesTheSameSequence() {
        var first = SeededRandomNumberGenerator(seed: 99)
        var second = SeededRandomNumberGenerator(seed: 99)
        #expect((0..<100).map { _ in first.next() } == (0..<100).map { _ in second.next() })
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentSequences() {
        var zero = SeededRandomNumberGenerator(seed: 0)
        var one = SeededRandomNumberGenerator(seed: 1)
        #expect((0..<10).map { _ in zero.next() } != (0..<10).map { _ in one.next() })
        #expect(zero.next() != 0)
    }

    @Test func sequenceIsPinnedAcrossReleases() {
        // Generated data must never change silently: pin the first outputs for seed 1 (checked against a
        // reference xoshiro256** seeded by SplitMix64).
        var rng = SeededRandomNumberGenerator(seed: 1)
        let values = (0..<3).map { _ in rng.next() }
        var again = SeededRandomNumberGenerator(seed: 1)
        #expect(values == (0..<3).map { _ in again.next() })
        #expect(values == Self.pinned)
    }

    static let pinned: [UInt64] = [12_966_619_160_104_079_557, 9_600_361_134_598_540_522, 10_590_380_919_521_690_900]

    @Test func valuesStayInTheirRanges() {
        var rng = SeededRandomNumberGenerator(seed: 7)
        for _ in 0..<10_000 {
            let unit = rng.nextDouble()
            #expect(unit >= 0 && unit < 1)
            #expect((3...9).contains(rng.int(in: 3...9)))
            #expect((-2.5...2.5).contains(rng.uniform(in: -2.5...2.5)))
            #expect(rng.normal(mean: 0, standardDeviation: 1).isFinite)
        }
        #expect(rng.int(in: 5...5) == 5)
        _ = rng.int(in: Int.min...Int.max)
    }

    @Test func integersCoverTheirRangeEvenly() {
        var rng = SeededRandomNumberGenerator(seed: 3)
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<60_000 { counts[rng.int(in: 0...5)] += 1 }
        #expect(counts.allSatisfy { (9_500...10_500).contains($0) }, "\(counts)")
    }

    @Test func normalVariatesHaveTheirMeanAndSpread() {
        var rng = SeededRandomNumberGenerator(seed: 4)
        let values = (0..<20_000).map { _ in rng.normal(mean: 60, standardDeviation: 5) }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        #expect(abs(mean - 60) < 0.2)
        #expect(abs(variance.squareRoot() - 5) < 0.2)
    }

    @Test func uuidsAreVersionFourAndReproducible() {
        var rng = SeededRandomNumberGenerator(seed: 5)
        var again = SeededRandomNumberGenerator(seed: 5)
        let uuid = rng.nextUUID()
        #expect(uuid == again.nextUUID())
        #expect(uuid.uuid.6 >> 4 == 4)
        #expect(uuid.uuid.8 >> 6 == 0b10)
        #expect(rng.nextUUID() != uuid)
    }
}
