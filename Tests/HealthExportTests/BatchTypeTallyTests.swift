import HealthFlow
import Testing

@testable import HealthExport

struct BatchTypeTallyTests {
    @Test func typesAreCountedInTheOrderFirstAddedWhetherInRunsOrInterleaved() {
        var tally = BatchTypeTally()
        for type: HealthObjectType in [.stepCount, .stepCount, .heartRate, .stepCount, .bodyMass, .heartRate] {
            tally.add(type)
        }
        #expect(tally.types == [.stepCount, .heartRate, .bodyMass])
        #expect(tally.counts.map(\.count) == [3, 2, 1])
    }

    @Test func anEqualTypeMadeApartCountsAsTheSameType() throws {
        var tally = BatchTypeTally()
        tally.add(.heartRate)
        let madeApart = try #require(HealthObjectType(identifier: HealthObjectType.heartRate.identifier))
        tally.add(madeApart)
        #expect(tally.counts.map(\.count) == [2])
    }
}
