import Foundation

/// Generates a realistic, reproducible health record for one person — steps, distance, energy,
/// exercise, stand, heart rate, sleep stages, body mass, height, blood pressure, blood glucose — and the
/// activity summaries that follow from it. No store is involved; the output is plain samples.
///
/// The same configuration always yields identical data, UUIDs included: all randomness comes from
/// `SeededRandomNumberGenerator` streams derived from the seed (one per concern and day, so changing the
/// step resolution does not change the person's activity). Every sample is made with the validated
/// initialisers; a refusal would surface as `GeneratorError.invalidSample`.
///
/// ## What a day looks like
/// - **Sleep** from a bedtime around 22:45 (weekends later, never after 23:50) to a wake time around
///   06:45 (weekends ~08:15): the phone records `inBed` for the whole night; the watch records stages
///   (`asleepCore`, `asleepDeep`, `asleepREM`, `awake`) that tile the time from falling asleep to the
///   final awakening without gaps. The night before the first day and after the last are not generated.
/// - **Steps** (phone) at the chosen resolution, zero slots included; **distance** for slots with steps
///   (stride from height; longer when running).
/// - **Active energy** (watch): one sample per waking hour.
/// - **Exercise time** (watch): one sample per run of minutes at 100 steps/min or more.
/// - **Stand** (watch): an `appleStandHour` sample for every waking hour (`stood` when some minute had
///   10 steps or more, else `idle`) and `appleStandTime` minutes for hours with standing.
/// - **Heart rate** (watch): instantaneous readings every 4–7 minutes awake (every minute in a workout),
///   every 9–15 minutes asleep, around a resting rate near 60 and higher with activity.
/// - **Body mass** most mornings (slow drift), **height** twice, **blood pressure** about every third
///   morning (as `bloodPressure` correlations), **blood glucose** fasting most mornings and sometimes
///   after lunch (devices source).
public struct HealthDataGenerator: Sendable {
    /// What to generate.
    public let configuration: GeneratorConfiguration

    /// The longest data set, in days (100 years).
    public static let maximumDays = 36_600

    /// Makes a generator.
    ///
    /// - Parameter configuration: What to generate.
    public init(configuration: GeneratorConfiguration) {
        self.configuration = configuration
    }

    /// Generates the data set.
    ///
    /// - Returns: The samples, correlations and activity summaries.
    /// - Throws: `GeneratorError.invalidConfiguration` (days outside 1…36,600, a non-finite start),
    ///   `.calendarArithmeticFailed`, and — never expected — `.invalidSample` or `.activitySummary`.
    /// - Complexity: O(days × 1,440) for the minute model plus O(n log n) for the summaries.
    public func generate() throws(GeneratorError) -> GeneratedHealthData {
        let configuration = configuration
        guard (1...Self.maximumDays).contains(configuration.days) else {
            throw .invalidConfiguration("days must be between 1 and \(Self.maximumDays); got \(configuration.days)")
        }
        guard configuration.startDate.timeIntervalSinceReferenceDate.isFinite else {
            throw .invalidConfiguration("startDate must be finite")
        }
        var writer = SampleWriter(configuration: configuration)
        try writer.write()
        return try writer.finish()
    }
}

/// Builds the data set day by day.
private struct SampleWriter {
    let configuration: GeneratorConfiguration
    let calendar: Calendar
    let seed: UInt64
    var profile: PersonProfile
    /// One identifier stream per type, so the number of samples of one type never shifts another's UUIDs.
    var identifiers: [String: SeededRandomNumberGenerator] = [:]

    var quantities: [HealthObjectType: [HealthQuantitySample]] = [:]
    var categories: [HealthObjectType: [HealthCategorySample]] = [:]
    var correlations: [HealthCorrelation] = []
    var dayStarts: [Date] = []

    static let perMinute = HealthUnit.count().unitDivided(by: .minute())
    static let milligramsPerDeciliter = HealthUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci))

    init(configuration: GeneratorConfiguration) {
        self.configuration = configuration
        calendar = configuration.calendar
        seed = configuration.seed
        var profileRandom = RandomStream.profile.generator(seed: seed)
        profile = PersonProfile(rng: &profileRandom)
    }

    mutating func write() throws(GeneratorError) {
        let first = calendar.startOfDay(for: configuration.startDate)
        for day in 0...configuration.days {
            guard let start = calendar.date(byAdding: .day, value: day, to: first) else {
                throw .calendarArithmeticFailed(day: day)
            }
            dayStarts.append(start)
        }
        let schedule = makeSchedule()
        for day in 0..<configuration.days {
            let start = dayStarts[day]
            let minutes = Int((dayStarts[day + 1].timeIntervalSince(start) / 60).rounded())
            // Days of 20–28 hours cover every clock change; anything else is a calendar we cannot model.
            guard (20 * 60...28 * 60).contains(minutes) else { throw .calendarArithmeticFailed(day: day) }
            let isWeekend = calendar.isDateInWeekend(start.addingTimeInterval(12 * 3600))
            var activityRandom = RandomStream.activity.generator(seed: seed, index: UInt64(day))
            let activity = DayActivity(
                minutes: minutes, wake: schedule[day].wake, bed: min(schedule[day].bed, minutes - 10),
                isWeekend: isWeekend, profile: profile, rng: &activityRandom)
            try writeMovement(activity, dayStart: start, minutes: minutes)
            try writeHeartRate(activity, dayStart: start, minutes: minutes, day: day)
            try writeMeasurements(activity, dayStart: start, day: day)
            if day + 1 < configuration.days {
                try writeNight(
                    bed: start.addingTimeInterval(Double(activity.bed) * 60),
                    outOfBed: dayStarts[day + 1].addingTimeInterval(Double(schedule[day + 1].wake) * 60), night: day)
            }
        }
    }

    /// Wake and bed times (minutes after midnight) for every day.
    private func makeSchedule() -> [(wake: Int, bed: Int)] {
        var rng = RandomStream.schedule.generator(seed: seed)
        var schedule: [(wake: Int, bed: Int)] = []
        schedule.reserveCapacity(configuration.days)
        for day in 0..<configuration.days {
            let weekend = calendar.isDateInWeekend(dayStarts[day].addingTimeInterval(12 * 3600))
            let nextWeekend = calendar.isDateInWeekend(dayStarts[day + 1].addingTimeInterval(12 * 3600))
            let wake: Double =
                weekend
                ? rng.normal(mean: 8.25 * 60, standardDeviation: 40)
                : rng.normal(mean: 6.75 * 60, standardDeviation: 20)
            let bed: Double =
                nextWeekend
                ? rng.normal(mean: 23.4 * 60, standardDeviation: 20)
                : rng.normal(mean: 22.75 * 60, standardDeviation: 25)
            let wakeMinute = Int(min(600.0, max(300.0, wake)).rounded())
            let bedMinute = Int(min(1430.0, max(1290.0, bed)).rounded())
            schedule.append((wakeMinute, bedMinute))
        }
        return schedule
    }

    // MARK: Samples

    /// The next UUID for a sample of `type`.
    private mutating func nextUUID(for type: HealthObjectType) -> UUID {
        if let uuid = identifiers[type.identifier]?.nextUUID() { return uuid }
        // FNV-1a of the identifier: a stable stream index (Swift's hashValue is randomly seeded per run).
        let index = type.identifier.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        var stream = RandomStream.identifiers.generator(seed: seed, index: index)
        let uuid = stream.nextUUID()
        identifiers[type.identifier] = stream
        return uuid
    }

    private mutating func quantity(
        _ type: HealthObjectType, _ unit: HealthUnit, _ value: Double, _ start: Date, _ end: Date,
        _ source: HealthSource
    ) throws(GeneratorError) -> HealthQuantitySample {
        let uuid = nextUUID(for: type)
        do {
            return try HealthQuantitySample(
                type: type, quantity: HealthQuantity(unit: unit, doubleValue: value), start: start, end: end,
                source: source, uuid: uuid)
        } catch {
            throw .invalidSample(error)
        }
    }

    private mutating func add(
        _ type: HealthObjectType, _ unit: HealthUnit, _ value: Double, _ start: Date, _ end: Date,
        _ source: HealthSource
    ) throws(GeneratorError) {
        quantities[type, default: []].append(try quantity(type, unit, value, start, end, source))
    }

    private mutating func add<Value: HealthCategoryValue>(
        _ value: Value, _ start: Date, _ end: Date, _ source: HealthSource
    ) throws(GeneratorError) {
        let uuid = nextUUID(for: Value.categoryType)
        do {
            let sample = try HealthCategorySample(value, start: start, end: end, source: source, uuid: uuid)
            categories[Value.categoryType, default: []].append(sample)
        } catch {
            throw .invalidSample(error)
        }
    }

    private func date(_ dayStart: Date, minute: Int) -> Date { dayStart.addingTimeInterval(Double(minute) * 60) }

    /// Rounds to a number of decimal places, so values read like a device's.
    private func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    private mutating func writeMovement(_ activity: DayActivity, dayStart: Date, minutes: Int) throws(GeneratorError) {
        let phone = configuration.phone
        let watch = configuration.watch
        // Steps and distance at the chosen resolution.
        let slot = configuration.stepResolution.minutes
        for first in stride(from: 0, to: minutes, by: slot) {
            let last = min(first + slot, minutes)
            let steps = activity.steps[first..<last].reduce(0, +)
            let start = date(dayStart, minute: first)
            let end = date(dayStart, minute: last)
            try add(.stepCount, .count(), Double(steps), start, end, phone)
            if steps > 0 {
                let meters = (first..<last).reduce(0.0) { $0 + activity.distance($1, profile: profile) }
                try add(.distanceWalkingRunning, .meter(), round(meters, 2), start, end, phone)
            }
        }
        // Hourly energy, stand hours and stand time for waking hours.
        for first in stride(from: 0, to: minutes, by: 60) {
            let last = min(first + 60, minutes)
            guard (first..<last).contains(where: activity.isAwake) else { continue }
            let start = date(dayStart, minute: first)
            let end = date(dayStart, minute: last)
            let energy = (first..<last).reduce(0.0) { $0 + activity.activeEnergy($1, profile: profile) }
            if energy > 0 { try add(.activeEnergyBurned, .kilocalorie(), round(energy, 3), start, end, watch) }
            let stood = (first..<last).contains { activity.isAwake($0) && activity.steps[$0] >= 10 }
            try add(stood ? AppleStandHourValue.stood : .idle, start, end, watch)
            let standing = (first..<last).filter { activity.isAwake($0) && activity.steps[$0] > 0 }.count
            if standing > 0 { try add(.appleStandTime, .minute(), Double(standing), start, end, watch) }
        }
        // Exercise: one sample per run of exercise minutes.
        var minute = 0
        while minute < minutes {
            guard activity.isExercise(minute) else {
                minute += 1
                continue
            }
            let first = minute
            while minute < minutes && activity.isExercise(minute) { minute += 1 }
            try add(
                .appleExerciseTime, .minute(), Double(minute - first), date(dayStart, minute: first),
                date(dayStart, minute: minute), watch)
        }
    }

    private mutating func writeHeartRate(
        _ activity: DayActivity, dayStart: Date, minutes: Int, day: Int
    ) throws(GeneratorError) {
        var rng = RandomStream.heartRate.generator(seed: seed, index: UInt64(day))
        var minute = rng.int(in: 0...9)
        while minute < minutes {
            let beats = activity.heartRate(minute, resting: profile.restingHeartRate)
            let noisy = min(200, max(38, rng.normal(mean: beats, standardDeviation: activity.isAwake(minute) ? 4 : 2)))
            let instant = date(dayStart, minute: minute).addingTimeInterval(Double(rng.int(in: 0...59)))
            try add(.heartRate, Self.perMinute, noisy.rounded(), instant, instant, configuration.watch)
            if !activity.isAwake(minute) {
                minute += rng.int(in: 9...15)
            } else if activity.steps[minute] >= DayActivity.exerciseCadence {
                minute += 1
            } else {
                minute += rng.int(in: 4...7)
            }
        }
    }

    private mutating func writeMeasurements(_ activity: DayActivity, dayStart: Date, day: Int) throws(GeneratorError) {
        var rng = RandomStream.measurements.generator(seed: seed, index: UInt64(day))
        let devices = configuration.devices
        let morning = activity.wake
        if rng.chance(0.8) {
            let years = Double(day) / 365
            let mass =
                profile.bodyMassStart + profile.bodyMassDriftPerYear * years + 0.5 * sin(2 * .pi * years)
                + rng.normal(mean: 0, standardDeviation: 0.25)
            let at = date(dayStart, minute: morning + rng.int(in: 5...20))
            try add(.bodyMass, .gramUnit(with: .kilo), round(mass, 1), at, at, devices)
        }
        if day == 0 || day == configuration.days / 2 && day > 0 {
            let at = date(dayStart, minute: morning + 30)
            let centimeters = round((profile.height + rng.normal(mean: 0, standardDeviation: 0.003)) * 100, 1)
            try add(.height, .meterUnit(with: .centi), centimeters, at, at, devices)
        }
        if rng.chance(0.3) {
            let at = date(dayStart, minute: morning + rng.int(in: 15...45))
            let systolic = (profile.systolic + rng.normal(mean: 0, standardDeviation: 6)).rounded()
            let diastolic =
                (profile.diastolic + 0.5 * (systolic - profile.systolic) + rng.normal(mean: 0, standardDeviation: 3))
                .rounded()
            let mmHg = HealthUnit.millimeterOfMercury()
            let members: Set<HealthQuantitySample> = [
                try quantity(.bloodPressureSystolic, mmHg, systolic, at, at, devices),
                try quantity(.bloodPressureDiastolic, mmHg, min(diastolic, systolic - 20), at, at, devices),
            ]
            let uuid = nextUUID(for: .bloodPressure)
            do {
                correlations.append(
                    try HealthCorrelation(
                        type: .bloodPressure, start: at, end: at, objects: members, source: devices, uuid: uuid))
            } catch {
                throw .invalidSample(error)
            }
        }
        if rng.chance(0.6) {
            let at = date(dayStart, minute: morning + rng.int(in: 10...30))
            let glucose = min(130, max(65, rng.normal(mean: profile.fastingGlucose, standardDeviation: 6)))
            try add(.bloodGlucose, Self.milligramsPerDeciliter, glucose.rounded(), at, at, devices)
        }
        if rng.chance(0.4) {
            let minute = 13 * 60 + 30 + rng.int(in: 0...60)
            if minute < activity.bed {
                let at = date(dayStart, minute: minute)
                let glucose = min(220, max(70, rng.normal(mean: profile.fastingGlucose + 35, standardDeviation: 12)))
                try add(.bloodGlucose, Self.milligramsPerDeciliter, glucose.rounded(), at, at, devices)
            }
        }
    }

    private mutating func writeNight(bed: Date, outOfBed: Date, night: Int) throws(GeneratorError) {
        var rng = RandomStream.sleep.generator(seed: seed, index: UInt64(night))
        try add(SleepAnalysisValue.inBed, bed, outOfBed, configuration.phone)
        let onset = bed.addingTimeInterval(Double(rng.int(in: 5...25)) * 60)
        let finalWake = outOfBed.addingTimeInterval(-Double(rng.int(in: 0...10)) * 60)
        guard finalWake > onset else { return }
        for (stage, start, end) in SleepNight.stages(from: onset, to: finalWake, rng: &rng) {
            try add(stage, start, end, configuration.watch)
        }
    }

    // MARK: Summaries

    func finish() throws(GeneratorError) -> GeneratedHealthData {
        let first = dayStarts[0]
        let last = dayStarts[dayStarts.count - 2]
        func components(_ date: Date) -> DateComponents {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return DateComponents(calendar: calendar, year: parts.year, month: parts.month, day: parts.day)
        }
        var relevant: [HealthSample] = []
        for type in [HealthObjectType.activeEnergyBurned, .appleExerciseTime] {
            relevant += (quantities[type] ?? []).map(HealthSample.quantity)
        }
        relevant += (categories[.appleStandHour] ?? []).map(HealthSample.category)
        let summaries: [ActivitySummary]
        do {
            let predicate = try ActivitySummaryPredicate(start: components(first), end: components(last))
            summaries = try ActivitySummaryBuilder(calendar: calendar, goals: configuration.goals)
                .summaries(from: relevant, for: predicate)
        } catch {
            throw .activitySummary(error)
        }
        return GeneratedHealthData(
            configuration: configuration, dateInterval: DateInterval(start: first, end: dayStarts[dayStarts.count - 1]),
            quantitySamples: quantities, categorySamples: categories, correlations: correlations,
            activitySummaries: summaries)
    }
}
