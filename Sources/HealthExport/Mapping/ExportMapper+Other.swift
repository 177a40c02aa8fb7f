import Foundation
import HealthFlow

extension MetadataKey {
    /// The route files (`/workout-routes/route_….gpx`) an exported workout's `WorkoutRoute` elements name, one a
    /// line, relative to the export folder.
    public static let exportWorkoutRoutes = MetadataKey(rawValue: "HealthExportWorkoutRoutes")
}

/// Workouts, activity summaries and `Me`.
extension ExportMapper {
    mutating func quantity(_ element: ExportElement, _ value: String, unit unitName: String) throws(RecordProblem)
        -> HealthQuantity?
    {
        guard let text = element[value] else { return nil }
        let number = try Self.number(text, value)
        return HealthQuantity(unit: try unit(try Self.required(element, unitName)), doubleValue: number)
    }

    /// `WorkoutEvent` children: an instant at `date`, or an interval when a duration is written.
    mutating func events(_ element: ExportElement) throws(RecordProblem) -> [HealthWorkout.Event] {
        try element.children(named: "WorkoutEvent").map { child throws(RecordProblem) in
            let typeName = try Self.required(child, "type")
            guard let type = HealthWorkout.Event.EventType(healthKitName: typeName) else {
                throw RecordProblem(reason: .invalidValue, detail: "workout event type \"\(typeName)\"")
            }
            let date = try Self.date(child, "date").date
            let seconds = try self.seconds(child, "duration", unit: "durationUnit") ?? 0
            return HealthWorkout.Event(
                type: type, start: date, end: date.addingTimeInterval(seconds), metadata: metadata(child, start: nil))
        }
    }

    /// A time quantity in seconds, or `nil` when the attribute is absent.
    private mutating func seconds(_ element: ExportElement, _ value: String, unit unitName: String)
        throws(RecordProblem) -> Double?
    {
        guard let quantity = try quantity(element, value, unit: unitName) else { return nil }
        do {
            return try quantity.doubleValue(for: .second())
        } catch {
            throw RecordProblem(reason: .unitNotForType, detail: "\(value) in \(quantity.unit.unitString)")
        }
    }

    /// `WorkoutStatistics` children of a type the catalog holds; the others are returned by type name (counted
    /// by the import, not stored).
    mutating func statistics(_ element: ExportElement) throws(RecordProblem)
        -> (statistics: [HealthWorkout.Statistics], unknown: [String])
    {
        var statistics: [HealthWorkout.Statistics] = []
        var unknown: [String] = []
        for child in element.children(named: "WorkoutStatistics") {
            let typeName = try Self.required(child, "type")
            guard let type = HealthObjectType(identifier: typeName), type.kind == .quantity else {
                unknown.append(typeName)
                continue
            }
            statistics.append(
                HealthWorkout.Statistics(
                    type: type, start: try Self.date(child, "startDate").date,
                    end: try Self.date(child, "endDate").date, sum: try quantity(child, "sum", unit: "unit"),
                    average: try quantity(child, "average", unit: "unit"),
                    minimum: try quantity(child, "minimum", unit: "unit"),
                    maximum: try quantity(child, "maximum", unit: "unit")))
        }
        return (statistics, unknown)
    }

    /// A `Workout` as a workout sample, with the statistics types the catalog lacks (by name) and the route
    /// files its `WorkoutRoute` children name. Its identity is derived from its content like every record's;
    /// an activity whose `uuid` is not a UUID gets one derived from the workout's identity and its position.
    /// The route files are kept in ``MetadataKey/exportWorkoutRoutes``.
    mutating func workout(from element: ExportElement) throws(RecordProblem)
        -> (workout: HealthWorkout, unknownStatistics: [String], routeFiles: [String])
    {
        let activityName = try Self.required(element, "workoutActivityType")
        guard let activityType = HealthWorkout.ActivityType(healthKitName: activityName) else {
            throw RecordProblem(reason: .invalidValue, detail: "workoutActivityType \"\(activityName)\"")
        }
        let start = try Self.date(element, "startDate")
        let end = try Self.date(element, "endDate")
        guard end.date >= start.date else {
            throw RecordProblem(reason: .endBeforeStart, detail: "ends before it starts")
        }
        var identity = identity(of: element, typeAttribute: "workoutActivityType", start: start, end: end)
        identity.add(element["duration"] ?? "")
        let uuid = identity.uuid
        var unknownStatistics: [String] = []
        var activities: [HealthWorkout.Activity] = []
        for (index, child) in element.children(named: "WorkoutActivity").enumerated() {
            let figures = try statistics(child)
            unknownStatistics += figures.unknown
            var activityIdentity = ContentIdentity()
            activityIdentity.add(uuid)
            activityIdentity.add(String(index))
            activities.append(
                HealthWorkout.Activity(
                    activityType: activityType, start: try Self.date(child, "startDate").date,
                    end: try Self.date(child, "endDate").date, events: try events(child),
                    statistics: figures.statistics, metadata: metadata(child, start: nil),
                    uuid: child["uuid"].flatMap(UUID.init(uuidString:)) ?? activityIdentity.uuid))
        }
        let routes = element.children(named: "WorkoutRoute").flatMap { $0.children(named: "FileReference") }
            .compactMap { $0["path"] }
        var metadata = metadata(element, start: start)
        if !routes.isEmpty { metadata[.exportWorkoutRoutes] = .string(routes.joined(separator: "\n")) }
        let figures = try statistics(element)
        unknownStatistics += figures.unknown
        let duration = try seconds(element, "duration", unit: "durationUnit")
        let energy =
            try quantity(element, "totalEnergyBurned", unit: "totalEnergyBurnedUnit")
            ?? Self.onlySum(in: figures.statistics) { $0 == .activeEnergyBurned }
        let distance =
            try quantity(element, "totalDistance", unit: "totalDistanceUnit")
            ?? Self.onlySum(in: figures.statistics) { $0.identifier.hasPrefix("distance") }
        let events = try events(element)
        let source = source(of: element)
        do {
            let workout = try HealthWorkout(
                activityType: activityType, start: start.date, end: end.date, duration: duration,
                totalEnergyBurned: energy, totalDistance: distance, events: events, activities: activities,
                statistics: figures.statistics, source: source, metadata: metadata, uuid: uuid)
            return (workout, unknownStatistics, routes)
        } catch {
            throw Self.problem(error)
        }
    }

    /// The sum of the one statistics entry whose type `matches`, or `nil` when none or several have a sum.
    ///
    /// Newer exports (iOS 16 on) write a workout's totals only as `WorkoutStatistics`; HealthKit's
    /// `totalEnergyBurned` and `totalDistance` are then the sums of its active energy and distance statistics,
    /// and so are the imported workout's. Two distances (a multisport workout) name no one total, so none is set.
    static func onlySum(in statistics: [HealthWorkout.Statistics], where matches: (HealthObjectType) -> Bool)
        -> HealthQuantity?
    {
        let sums = statistics.filter { matches($0.type) }.compactMap(\.sum)
        return sums.count == 1 ? sums[0] : nil
    }

    /// An `ActivitySummary`, its day in the Gregorian calendar at `utcOffset` (the export's own offset).
    mutating func activitySummary(from element: ExportElement, utcOffset: Int) throws(RecordProblem)
        -> ActivitySummary
    {
        let dayText = try Self.required(element, "dateComponents")
        guard let day = ExportDate.day(dayText) else {
            throw RecordProblem(reason: .badDate, detail: "dateComponents \"\(dayText)\"")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffset) ?? TimeZone(secondsFromGMT: 0)!
        let energyUnit = try unit(element["activeEnergyBurnedUnit"] ?? "kcal")
        func value(_ name: String, _ unit: HealthUnit, default fallback: Double = 0) throws(RecordProblem)
            -> HealthQuantity
        {
            HealthQuantity(
                unit: unit,
                doubleValue: try element[name].map { (text) throws(RecordProblem) in
                    try Self.number(text, name)
                } ?? fallback)
        }
        do {
            return try ActivitySummary(
                dateComponents: DateComponents(calendar: calendar, year: day.year, month: day.month, day: day.day),
                activeEnergyBurned: try value("activeEnergyBurned", energyUnit),
                activeEnergyBurnedGoal: try value("activeEnergyBurnedGoal", energyUnit),
                appleMoveTime: try value("appleMoveTime", .minute()),
                appleMoveTimeGoal: try value("appleMoveTimeGoal", .minute()),
                appleExerciseTime: try value("appleExerciseTime", .minute()),
                exerciseTimeGoal: try value("appleExerciseTimeGoal", .minute(), default: 30),
                appleStandHours: try value("appleStandHours", .count()),
                standHoursGoal: try value("appleStandHoursGoal", .count(), default: 12))
        } catch let problem as RecordProblem {
            throw problem
        } catch {
            throw RecordProblem(reason: .invalidValue, detail: "\(error)")
        }
    }

    /// `Me`'s attributes as characteristics; attributes the model has no place for are returned by name.
    static func characteristics(from element: ExportElement) -> (HealthCharacteristics, unmapped: [String]) {
        var me = HealthCharacteristics()
        var unmapped: [String] = []
        let prefix = "HKCharacteristicTypeIdentifier"
        func named<Value: CaseIterable>(_ text: String, _ valuePrefix: String, _: Value.Type) -> Value? {
            Value.allCases.first {
                let name = String(describing: $0)
                return text == valuePrefix + name.prefix(1).uppercased() + name.dropFirst()
            }
        }
        for attribute in element.attributes {
            let text = attribute.value
            switch attribute.name {
            case prefix + "DateOfBirth":
                if let day = ExportDate.day(text) {
                    me.dateOfBirth = DateComponents(year: day.year, month: day.month, day: day.day)
                }
            case prefix + "BiologicalSex":
                me.biologicalSex = named(text, "HKBiologicalSex", BiologicalSex.self) ?? .notSet
            case prefix + "BloodType":
                me.bloodType = BloodType.allCases.first { text == "HKBloodType" + Self.bloodTypeName($0) } ?? .notSet
            case prefix + "FitzpatrickSkinType":
                me.fitzpatrickSkinType = named(text, "HKFitzpatrickSkin", FitzpatrickSkinType.self) ?? .notSet
            case prefix + "WheelchairUse":
                me.wheelchairUse = named(text, "HKWheelchairUse", WheelchairUse.self) ?? .notSet
            default:
                unmapped.append(attribute.name)
            }
        }
        return (me, unmapped)
    }

    /// HealthKit's blood type names: `HKBloodTypeAPositive`, `HKBloodTypeABNegative`, `HKBloodTypeONegative`.
    private static func bloodTypeName(_ type: BloodType) -> String {
        switch type {
        case .notSet: "NotSet"
        case .aPositive: "APositive"
        case .aNegative: "ANegative"
        case .bPositive: "BPositive"
        case .bNegative: "BNegative"
        case .abPositive: "ABPositive"
        case .abNegative: "ABNegative"
        case .oPositive: "OPositive"
        case .oNegative: "ONegative"
        }
    }
}
