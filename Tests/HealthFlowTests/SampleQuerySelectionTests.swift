import Foundation
import Testing

@testable import HealthFlow

/// ``SampleQuerySelection`` picks, while the matches go by, exactly the first `limit` samples that sorting them all
/// would give, holding no more than `max(2 × limit, 64)` at a time.
struct SampleQuerySelectionTests {
    @Test(arguments: [1, 2, 3])
    func theSelectionIsThePrefixOfTheFullSortWhateverTheOrderOfArrival(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let origin = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let unit = try HealthUnit(from: "count")
        // Few distinct dates: most samples tie on both, and only their ranks order them.
        let samples = try (0..<2_000).map { _ in
            let start = origin + Double(Int.random(in: 0..<30, using: &generator)) * 60
            return HealthSample.quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: HealthQuantity(unit: unit, doubleValue: 1), start: start,
                    end: start + Double(Int.random(in: 0..<5, using: &generator)) * 60,
                    source: HealthSource(bundleIdentifier: "com.example", name: "Example")))
        }
        let ranks = (0..<UInt64(samples.count)).shuffled(using: &generator)
        let orders: [[SampleSortDescriptor]] = [
            [], [.startDate(ascending: false)], [.endDate()], [.endDate(ascending: false), .startDate()],
        ]
        for descriptors in orders {
            let order = SampleQueryOrder(descriptors: descriptors)
            let sorted = zip(samples, ranks).sorted {
                order.precedes(SampleQueryOrder.Key($0.0, rank: $0.1), SampleQueryOrder.Key($1.0, rank: $1.1))
            }.map(\.0.uuid)
            for limit in [0, 1, 2, 31, 32, 33, 500, 1_999, 2_000, 5_000] {
                var selection = SampleQuerySelection(order, limit: limit)
                var mostHeld = 0
                for (sample, rank) in zip(samples, ranks) {
                    selection.add(sample, rank: rank)
                    mostHeld = max(mostHeld, selection.heldCount)
                }
                #expect(mostHeld <= (limit == 0 ? samples.count : max(2 * limit, 64)))
                let picked = selection.samples().map(\.uuid)
                #expect(picked == Array(sorted.prefix(limit == 0 ? sorted.count : limit)), "\(descriptors) \(limit)")
            }
        }
    }
}
