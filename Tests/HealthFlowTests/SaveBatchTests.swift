import Foundation
import Testing

@testable import HealthFlow

/// A batch is checked and stored sample by sample, whatever the store remembers from one sample for the next
/// (a unit found to fit a type, a batch arriving in time order): mixed types and units, batches out of time order,
/// and a refusal anywhere in a batch give what one sample at a time would.
struct SaveBatchTests {
    private static let kinds: [(HealthObjectType, String, ClosedRange<Double>)] = [
        (.heartRate, "count/min", 50...120), (.heartRate, "count/s", 0.8...2), (.stepCount, "count", 0...200),
        (.bodyMass, "kg", 60...80), (.bodyMass, "lb", 130...170), (.bodyTemperature, "degC", 36...38),
        (.bodyTemperature, "degF", 97...100),
    ]

    /// `count` samples of the kinds above in turn, starting at random minutes within a day (so out of time
    /// order), some lasting a few minutes.
    private static func mixedBatch(_ count: Int, seed: UInt64) throws -> [HealthSample] {
        var random = SeededGenerator(seed: seed)
        return try (0..<count).map { position in
            let (type, unit, values) = kinds[position % kinds.count]
            let start = Fixture.noon + Double(Int.random(in: 0..<1_440, using: &random)) * 60
            let duration = type == .heartRate ? 0 : Double(Int.random(in: 0..<5, using: &random)) * 60
            return try StoreFixture.sample(
                type, Double.random(in: values, using: &random), unit: unit, start: start, duration: duration)
        }
    }

    @Test func aKnownUnitFitIsFoundForACopyAndForAnEqualUnitMadeApartButNotForAnotherTypeOrUnit() throws {
        let perMinute = try HealthUnit(from: "count/min")
        let copy = perMinute
        let parsedApart = try HealthUnit(from: "count/min")
        #expect(copy.isIdentical(to: perMinute) && parsedApart.isIdentical(to: perMinute))
        // Made once the intern table is full: storage of its own.
        let madeApart = HealthUnit(factors: perMinute.factors, internedIn: InternTable(limit: 0))
        #expect(!madeApart.isIdentical(to: perMinute) && madeApart == perMinute)
        var fits = UnitFits()
        fits.remember(.heartRate, in: perMinute)
        fits.remember(.bodyTemperature, in: try HealthUnit(from: "degC"))
        #expect(fits.fit(of: .heartRate, in: copy) == false)
        #expect(fits.fit(of: .heartRate, in: parsedApart) == false)
        #expect(fits.fit(of: .heartRate, in: madeApart) == false)
        #expect(fits.fit(of: .bodyTemperature, in: try HealthUnit(from: "degC")) == true)
        #expect(fits.fit(of: .respiratoryRate, in: perMinute) == nil)
        #expect(fits.fit(of: .heartRate, in: try HealthUnit(from: "count/s")) == nil)
    }

    private static func store() async throws -> InMemoryHealthStore {
        let types: Set<HealthObjectType> = [.heartRate, .stepCount, .bodyMass, .bodyTemperature, .insulinDelivery]
        return try await StoreFixture.authorizedStore(share: types, read: types)
    }

    /// A quantity sample in `unit` whose dimension was never checked against `type` (as a sample made by a path
    /// that skipped validation would be).
    private static func unchecked(_ type: HealthObjectType, _ value: Double, unit: String) throws -> HealthSample {
        .quantity(
            try HealthQuantitySample(
                type: type, quantity: Fixture.quantity(value, unit), start: Fixture.noon, end: Fixture.noon,
                source: Fixture.source, metadata: [:], uuid: UUID(), knownUnitFit: false))
    }

    private static func daily(
        _ type: HealthObjectType, _ options: StatisticsOptions, in store: InMemoryHealthStore
    ) async throws -> [HealthStatistics] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return try await store.statisticsCollection(
            of: type, options: options, anchorDate: Fixture.noon, intervalComponents: DateComponents(hour: 1),
            calendar: calendar
        ).statistics()
    }

    @Test func aBatchMixingTypesAndUnitsStoresWhatOneSampleAtATimeStores() async throws {
        let samples = try Self.mixedBatch(700, seed: 11)
        let batched = try await Self.store()
        let single = try await Self.store()
        try await batched.save(samples)
        for sample in samples { try await single.save(sample) }
        #expect(StateDump(batched.image) == StateDump(single.image))
        for (type, options) in [
            (HealthObjectType.heartRate, StatisticsOptions.discreteAverage), (.bodyMass, .discreteMax),
            (.bodyTemperature, .discreteMin), (.stepCount, .cumulativeSum),
        ] {
            #expect(try await Self.daily(type, options, in: batched) == Self.daily(type, options, in: single))
        }
    }

    @Test func batchesOutOfTimeOrderAfterTheColumnsWereBuiltKeepStatisticsAndQueriesInOrder() async throws {
        let samples = try Self.mixedBatch(1_400, seed: 12)
        let store = try await Self.store()
        try await store.save(Array(samples[..<700]))
        // The first statistics query builds the type's columns; later saves must keep them in step.
        let before = try await Self.daily(.stepCount, .cumulativeSum, in: store)
        try await store.save(Array(samples[700...]))
        let reference = try await Self.store()
        try await reference.save(samples)
        #expect(try await Self.daily(.stepCount, .cumulativeSum, in: store) != before)
        #expect(
            try await Self.daily(.stepCount, .cumulativeSum, in: store)
                == Self.daily(.stepCount, .cumulativeSum, in: reference))
        #expect(try await store.samples(of: .bodyMass) == reference.samples(of: .bodyMass))
        let starts = try await store.samples(of: .heartRate).map(\.startDate)
        #expect(starts == starts.sorted())
    }

    @Test func aUnitThatFitsOneTypeIsStillCheckedForTheNextType() async throws {
        let store = try await Self.store()
        let fitting = try StoreFixture.sample(.heartRate, 60, unit: "count/min")
        let misfit = try Self.unchecked(.stepCount, 60, unit: "count/min")
        let error = await storeError { try await store.save([fitting, misfit]) }
        guard case .invalidSample(.incompatibleUnit(let type, _, _, _)) = error else {
            Issue.record("expected an incompatible unit, got \(String(describing: error))")
            return
        }
        #expect(type == .stepCount)
        #expect(try await store.samples(of: .heartRate).isEmpty)
    }

    @Test func aRefusalInTheMiddleOfABatchLeavesTheStoreAsItWas() async throws {
        let store = try await Self.store()
        let first = try Self.mixedBatch(500, seed: 13)
        try await store.save(first)
        let columns = try await Self.daily(.heartRate, .discreteAverage, in: store)
        let image = StateDump(store.image)
        let good = try Self.mixedBatch(1_000, seed: 14)
        let other = HealthSource(bundleIdentifier: "com.example.other", name: "Other")
        let refusals: [(HealthSample, HealthStoreError?)] = [
            (first[250], .duplicateUUID(first[250].uuid)),
            (good[100], .duplicateUUID(good[100].uuid)),
            (try StoreFixture.sample(.dietaryWater, 250, unit: "mL"), .authorizationNotDetermined(.dietaryWater)),
            (try StoreFixture.sample(.stepCount, 10, source: other), nil),
            (try Self.unchecked(.bodyMass, 70, unit: "count"), nil),
        ]
        for (refused, expected) in refusals {
            let batch = Array(good[..<500]) + [refused] + Array(good[500...])
            let error = await storeError { try await store.save(batch) }
            #expect(error != nil)
            if let expected { #expect(error == expected) }
            #expect(StateDump(store.image) == image)
            #expect(try await Self.daily(.heartRate, .discreteAverage, in: store) == columns)
        }
        try await store.save(good)
        let heartRates = (first + good).filter { $0.type == .heartRate }
        #expect(try await store.samples(of: .heartRate).count == heartRates.count)
    }

    @Test func aBatchReadBackFromTheJournalEqualsTheBatchSaved() async throws {
        let samples =
            try Self.mixedBatch(700, seed: 15) + [
                try StoreFixture.sample(
                    .insulinDelivery, 2, unit: "IU",
                    metadata: [
                        .insulinDeliveryReason: InsulinDeliveryReason.bolus.metadataValue, .externalUUID: .string("a"),
                    ]),
                try StoreFixture.bloodPressure(at: Fixture.noon + 30),
            ]
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            #expect(
                DurableFixture.outcome {
                    store.requestAuthorization(
                        toShare: [
                            .heartRate, .stepCount, .bodyTemperature, .insulinDelivery, .bloodPressureSystolic,
                            .bloodPressureDiastolic,
                        ], read: [], completion: $0)
                })
            let kept = samples.filter { $0.type != .bodyMass }
            #expect(DurableFixture.outcome { store.save(kept, withCompletion: $0) })
            let saved = StateDump(store.image)
            store.close()
            let reopened = try DurableFixture.open(directory)
            defer { reopened.close() }
            #expect(StateDump(reopened.image) == saved)
        }
    }
}
