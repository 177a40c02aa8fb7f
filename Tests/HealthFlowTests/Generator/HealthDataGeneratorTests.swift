import Foundation
import HealthFlow
import Testing

struct HealthDataGeneratorTests {
    static func generate(
        days: Int = 7, seed: UInt64 = 1, resolution: GeneratorConfiguration.StepResolution = .hour,
        calendar: Calendar? = nil, startDate: Date? = nil
    ) throws -> GeneratedHealthData {
        try HealthDataGenerator(
            configuration: GeneratorConfiguration(
                days: days, seed: seed, startDate: startDate, calendar: calendar, stepResolution: resolution)
        ).generate()
    }

    static let calendar = StatisticsCollectionTests.utc

    /// The sum of each day's steps, by day start.
    static func dailySteps(_ data: GeneratedHealthData) -> [Date: Double] {
        var totals: [Date: Double] = [:]
        for sample in data.quantitySamples(of: .stepCount) {
            totals[calendar.startOfDay(for: sample.startDate), default: 0] += sample.quantity.value
        }
        return totals
    }

    @Test func sameSeedGivesIdenticalData() throws {
        let first = try Self.generate(days: 3, seed: 11)
        let second = try Self.generate(days: 3, seed: 11)
        #expect(first == second)
        #expect(first.allSamples().map(\.uuid) == second.allSamples().map(\.uuid))
    }

    @Test func differentSeedsGiveDifferentData() throws {
        let first = try Self.generate(days: 3, seed: 11)
        let second = try Self.generate(days: 3, seed: 12)
        #expect(
            first.quantitySamples(of: .stepCount).map(\.quantity)
                != second.quantitySamples(of: .stepCount).map(\.quantity))
        #expect(Set(first.allSamples().map(\.uuid)).isDisjoint(with: second.allSamples().map(\.uuid)))
    }

    @Test func minuteResolutionRecordsEveryMinuteWithTheSameDailyTotals() throws {
        let hourly = try Self.generate(days: 3, seed: 5)
        let minutely = try Self.generate(days: 3, seed: 5, resolution: .minute)
        #expect(hourly.quantitySamples(of: .stepCount).count == 3 * 24)
        #expect(minutely.quantitySamples(of: .stepCount).count == 3 * 1440)
        #expect(Self.dailySteps(hourly) == Self.dailySteps(minutely))
        #expect(hourly.activitySummaries == minutely.activitySummaries)
        #expect(hourly.quantitySamples(of: .heartRate) == minutely.quantitySamples(of: .heartRate))
        #expect(hourly.categorySamples == minutely.categorySamples)
    }

    @Test func daysFollowTheCalendarsClockChanges() throws {
        let berlin = StatisticsCollectionTests.calendar("Europe/Berlin")
        let start = try #require(berlin.date(from: DateComponents(year: 2024, month: 3, day: 30, hour: 15)))
        let data = try Self.generate(days: 3, seed: 2, resolution: .minute, calendar: berlin, startDate: start)
        #expect(data.quantitySamples(of: .stepCount).count == 1440 + 1380 + 1440)
        #expect(data.activitySummaries.map(\.dateString) == ["2024-03-30", "2024-03-31", "2024-04-01"])
        #expect(data.dateInterval.start == berlin.startOfDay(for: start))
    }

    @Test func everySampleIsValidAndSortedPerType() throws {
        let data = try Self.generate(days: 4, seed: 3)
        for (type, samples) in data.quantitySamples {
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.startDate <= $1.startDate }, "\(type) order")
            for sample in samples {
                let remade = try HealthQuantitySample(
                    type: sample.type, quantity: sample.quantity, start: sample.startDate, end: sample.endDate,
                    source: sample.source, metadata: sample.metadata, uuid: sample.uuid)
                #expect(remade == sample)
            }
        }
        for (type, samples) in data.categorySamples {
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.startDate <= $1.startDate }, "\(type) order")
            for sample in samples {
                let remade = try HealthCategorySample(
                    type: sample.type, value: sample.value, start: sample.startDate, end: sample.endDate,
                    source: sample.source, metadata: sample.metadata, uuid: sample.uuid)
                #expect(remade == sample)
            }
        }
        for correlation in data.correlations {
            let remade = try HealthCorrelation(
                type: correlation.type, start: correlation.startDate, end: correlation.endDate,
                objects: correlation.objects, source: correlation.source, uuid: correlation.uuid)
            #expect(remade == correlation)
        }
        let all = data.allSamples()
        #expect(all.count == data.sampleCount)
        #expect(Set(all.map(\.uuid)).count == all.count)
        #expect(all.allSatisfy { data.dateInterval.contains($0.startDate) && $0.endDate <= data.dateInterval.end })
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.startDate <= $1.startDate })
    }

    @Test func generatesEveryPromisedType() throws {
        let data = try Self.generate(days: 7, seed: 8)
        for type in [
            HealthObjectType.stepCount, .distanceWalkingRunning, .activeEnergyBurned, .appleExerciseTime,
            .appleStandTime, .heartRate, .bodyMass, .height, .bloodGlucose,
        ] {
            #expect(!data.quantitySamples(of: type).isEmpty, "\(type)")
        }
        #expect(data.quantitySamples(of: .height).count == 2)
        #expect(!data.categorySamples(of: .sleepAnalysis).isEmpty)
        #expect(!data.categorySamples(of: .appleStandHour).isEmpty)
        #expect(!data.correlations.isEmpty)
        #expect(data.activitySummaries.count == 7)
    }

    @Test func dataIsPlausibleAcrossSeeds() throws {
        for seed in UInt64(1)...20 {
            let data = try Self.generate(days: 7, seed: seed)
            let context = "seed \(seed)"
            for (day, steps) in Self.dailySteps(data) {
                #expect((1_000...30_000).contains(steps), "\(context) \(day): \(steps) steps")
            }
            let perMinute = HealthUnit.count().unitDivided(by: .minute())
            let beats = try data.quantitySamples(of: .heartRate).map { try $0.quantity.doubleValue(for: perMinute) }
            #expect(beats.allSatisfy { (38...200).contains($0) }, "\(context) heart rate range")
            let sorted = beats.sorted()
            #expect((48...75).contains(sorted[sorted.count / 4]), "\(context) lower quartile near resting")
            #expect(
                try data.quantitySamples(of: .bodyMass).allSatisfy {
                    (50...105).contains(try $0.quantity.doubleValue(for: .gramUnit(with: .kilo)))
                }, "\(context) body mass")
            #expect(
                try data.quantitySamples(of: .height).allSatisfy {
                    (1.5...2).contains(try $0.quantity.doubleValue(for: .meter()))
                },
                "\(context) height")
            for reading in data.correlations {
                let systolic = try #require(reading.objects(for: .bloodPressureSystolic).first).quantity.value
                let diastolic = try #require(reading.objects(for: .bloodPressureDiastolic).first).quantity.value
                #expect(
                    (85...160).contains(systolic) && (50...105).contains(diastolic) && systolic > diastolic,
                    "\(context) BP")
            }
            #expect(
                data.quantitySamples(of: .bloodGlucose).allSatisfy { (65...220).contains($0.quantity.value) },
                "\(context) glucose")
            for summary in data.activitySummaries {
                let energy = try summary.activeEnergyBurned.doubleValue(for: .kilocalorie())
                let exercise = try summary.appleExerciseTime.doubleValue(for: .minute())
                let stand = try summary.appleStandHours.doubleValue(for: .count())
                #expect((80...2_000).contains(energy), "\(context) \(summary.dateString) energy \(energy)")
                #expect((0...180).contains(exercise), "\(context) exercise \(exercise)")
                #expect((4...18).contains(stand), "\(context) stand hours \(stand)")
            }
            try expectNightsAreContiguous(data, context)
        }
    }

    /// Each night: one inBed sample from the phone; watch stages inside it, each starting where the
    /// previous ended, never two alike in a row, lasting 5–11 hours in all.
    private func expectNightsAreContiguous(_ data: GeneratedHealthData, _ context: String) throws {
        let sleep = data.categorySamples(of: .sleepAnalysis)
        let nights = sleep.filter { $0.value(as: SleepAnalysisValue.self) == .inBed }
        #expect(nights.count == data.configuration.days - 1, "\(context) one night between days")
        #expect(nights.allSatisfy { $0.source == data.configuration.phone })
        let stages = sleep.filter { $0.value(as: SleepAnalysisValue.self) != .inBed }
        #expect(stages.allSatisfy { $0.source == data.configuration.watch })
        var assigned = 0
        for night in nights {
            let inside = stages.filter { $0.startDate >= night.startDate && $0.endDate <= night.endDate }
            assigned += inside.count
            let first = try #require(inside.first, "\(context) stages for \(night.startDate)")
            let last = try #require(inside.last)
            #expect(zip(inside, inside.dropFirst()).allSatisfy { $0.endDate == $1.startDate }, "\(context) contiguous")
            #expect(zip(inside, inside.dropFirst()).allSatisfy { $0.value != $1.value }, "\(context) merged")
            #expect(inside.allSatisfy { $0.endDate > $0.startDate })
            #expect(Set(inside.map(\.value)).isSuperset(of: [3, 4, 5]), "\(context) core, deep and REM")
            let asleep = last.endDate.timeIntervalSince(first.startDate) / 3600
            #expect((5...11).contains(asleep), "\(context) night of \(asleep) h")
        }
        #expect(assigned == stages.count, "\(context) every stage belongs to a night")
    }

    @Test func activitySummariesMatchTheSamples() throws {
        for seed in UInt64(1)...10 {
            let data = try Self.generate(days: 5, seed: seed)
            let energy = data.quantitySamples(of: .activeEnergyBurned)
            let exercise = data.quantitySamples(of: .appleExerciseTime)
            let stood = data.categorySamples(of: .appleStandHour).filter {
                $0.value(as: AppleStandHourValue.self) == .stood
            }
            #expect(data.activitySummaries.count == 5)
            for summary in data.activitySummaries {
                let day = summary.dateInterval
                // Generated samples never cross midnight, so whole-sample sums per day are exact.
                let dayEnergy = energy.filter { day.start <= $0.startDate && $0.startDate < day.end }.reduce(0) {
                    $0 + $1.quantity.value
                }
                let dayExercise = exercise.filter { day.start <= $0.startDate && $0.startDate < day.end }.reduce(0) {
                    $0 + $1.quantity.value
                }
                let dayStood = stood.filter { day.start <= $0.startDate && $0.startDate < day.end }.count
                #expect(
                    close(try summary.activeEnergyBurned.doubleValue(for: .kilocalorie()), dayEnergy), "seed \(seed)")
                #expect(close(try summary.appleExerciseTime.doubleValue(for: .minute()), dayExercise), "seed \(seed)")
                #expect(try summary.appleStandHours.doubleValue(for: .count()) == Double(dayStood), "seed \(seed)")
                #expect(summary.activeEnergyBurnedGoal == HealthQuantity(unit: .kilocalorie(), doubleValue: 500))
            }
            // Exercise minutes agree with the minutes of brisk stepping.
            let minutely = try Self.generate(days: 5, seed: seed, resolution: .minute)
            let brisk = minutely.quantitySamples(of: .stepCount).filter { $0.quantity.value >= 100 }.count
            #expect(Double(brisk) == exercise.reduce(0) { $0 + $1.quantity.value }, "seed \(seed)")
        }
    }

    @Test func statisticsOnGeneratedDataAgreeWithBruteForce() throws {
        for seed in UInt64(1)...20 {
            let data = try Self.generate(days: 2, seed: seed)
            let range = data.dateInterval
            for (type, options, components) in [
                (
                    HealthObjectType.stepCount, StatisticsOptions([.cumulativeSum, .separateBySource]),
                    DateComponents(minute: 45)
                ),
                (.heartRate, [.discreteAverage, .discreteMin, .discreteMax, .mostRecent], DateComponents(hour: 3)),
                (.activeEnergyBurned, [.cumulativeSum, .duration], DateComponents(minute: 20)),
            ] {
                let samples = data.quantitySamples(of: type)
                let oracle = try StatisticsOracle.samples(samples, type: type)
                let style = try #require(type.aggregationStyle)
                let collection = try StatisticsCollection(
                    type, samples: samples, options: options, anchorDate: range.start.addingTimeInterval(600),
                    intervalComponents: components, calendar: Self.calendar, range: range)
                for statistics in collection.statistics() {
                    let window = (
                        statistics.startDate.timeIntervalSinceReferenceDate,
                        statistics.endDate.timeIntervalSinceReferenceDate
                    )
                    let expected = StatisticsOracle.values(oracle, window: window, style: style, options: options)
                    let overall = try #require(expected.overall)
                    try expectStatistics(statistics, equal: overall, "seed \(seed) \(type) \(statistics.startDate)")
                }
            }
        }
    }

    @Test func invalidDayCountsAreATypedError() {
        #expect(throws: GeneratorError.invalidConfiguration("days must be between 1 and 36600; got 0")) {
            try Self.generate(days: 0)
        }
        #expect(throws: GeneratorError.self) { try Self.generate(days: HealthDataGenerator.maximumDays + 1) }
    }
}
