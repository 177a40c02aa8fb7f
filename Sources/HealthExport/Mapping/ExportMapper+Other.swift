import Foundation
import HealthFlow

/// Workouts, activity summaries and `Me`: the values that are not samples.
extension ExportMapper {
    mutating func quantity(_ element: ExportElement, _ value: String, unit unitName: String) throws(RecordProblem)
        -> HealthQuantity?
    {
        guard let text = element[value] else { return nil }
        let number = try Self.number(text, value)
        return HealthQuantity(unit: try unit(try Self.required(element, unitName)), doubleValue: number)
    }

    mutating func events(_ element: ExportElement) throws(RecordProblem) -> [HealthExportWorkout.Event] {
        try element.children(named: "WorkoutEvent").map { child throws(RecordProblem) in
            HealthExportWorkout.Event(
                type: try Self.required(child, "type"), date: try Self.date(child, "date").date,
                duration: try quantity(child, "duration", unit: "durationUnit"))
        }
    }

    mutating func statistics(_ element: ExportElement) throws(RecordProblem) -> [HealthExportWorkout.Statistics] {
        try element.children(named: "WorkoutStatistics").map { child throws(RecordProblem) in
            HealthExportWorkout.Statistics(
                type: try Self.required(child, "type"), startDate: try Self.date(child, "startDate").date,
                endDate: try Self.date(child, "endDate").date, sum: try quantity(child, "sum", unit: "unit"),
                average: try quantity(child, "average", unit: "unit"),
                minimum: try quantity(child, "minimum", unit: "unit"),
                maximum: try quantity(child, "maximum", unit: "unit"))
        }
    }

    mutating func workout(from element: ExportElement) throws(RecordProblem) -> HealthExportWorkout {
        let activityType = try Self.required(element, "workoutActivityType")
        let start = try Self.date(element, "startDate")
        let end = try Self.date(element, "endDate")
        guard end.date >= start.date else {
            throw RecordProblem(reason: .endBeforeStart, detail: "ends before it starts")
        }
        let activities = try element.children(named: "WorkoutActivity").map { child throws(RecordProblem) in
            HealthExportWorkout.Activity(
                uuid: child["uuid"], startDate: try Self.date(child, "startDate").date,
                endDate: try Self.date(child, "endDate").date,
                duration: try quantity(child, "duration", unit: "durationUnit"), events: try events(child),
                statistics: try statistics(child), metadata: metadata(child, start: nil))
        }
        let routes = element.children(named: "WorkoutRoute").flatMap { $0.children(named: "FileReference") }
            .compactMap { $0["path"] }
        var identity = Self.identity(of: element, type: activityType, start: start, end: end)
        identity.add(element["duration"] ?? "")
        return HealthExportWorkout(
            uuid: identity.uuid, activityType: activityType, startDate: start.date, endDate: end.date,
            duration: try quantity(element, "duration", unit: "durationUnit"),
            totalDistance: try quantity(element, "totalDistance", unit: "totalDistanceUnit"),
            totalEnergyBurned: try quantity(element, "totalEnergyBurned", unit: "totalEnergyBurnedUnit"),
            source: pool.source(named: element["sourceName"] ?? ""), metadata: metadata(element, start: start),
            events: try events(element), statistics: try statistics(element), activities: activities,
            routeFiles: routes, line: element.line)
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
