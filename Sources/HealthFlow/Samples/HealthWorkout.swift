import Foundation

/// A workout — the counterpart of `HKWorkout`. The type is always `HealthObjectType.workout`.
///
/// The initializer enforces HealthKit's rules and throws instead of crashing: `end >= start`; the duration is
/// finite and not negative; each total is finite, not negative and in a unit of its quantity type (energy for
/// `totalEnergyBurned`, length for `totalDistance`, `count` for swimming strokes and flights); every event and
/// activity lies within the workout's interval and ends no earlier than it starts; every statistics entry is
/// for a quantity type, in units of that type, with at most one entry per type; metadata obeys the usual
/// rules. The device, as everywhere in HealthFlow, travels in metadata.
public struct HealthWorkout: Hashable, Sendable {
    /// What the person did — HealthKit's `HKWorkoutActivityType`, by its case name (`running` for
    /// `HKWorkoutActivityTypeRunning`). Any name is kept, so a type newer than this list survives a round trip.
    public struct ActivityType: Hashable, Sendable, Codable, CustomStringConvertible {
        /// HealthKit's case name, such as `running` or `traditionalStrengthTraining`.
        public let name: String

        /// An activity type by HealthKit's case name.
        ///
        /// - Parameter name: Such as `running`; any name is accepted.
        public init(name: String) {
            self.name = name
        }

        /// The activity type a HealthKit constant name names, such as `HKWorkoutActivityTypeRunning`; `nil` when
        /// the name lacks the `HKWorkoutActivityType` prefix or has nothing after it.
        ///
        /// - Parameter healthKitName: The constant's name as exports write it.
        public init?(healthKitName: String) {
            guard healthKitName.hasPrefix(Self.prefix), healthKitName.count > Self.prefix.count else { return nil }
            let rest = healthKitName.dropFirst(Self.prefix.count)
            self.name = rest.prefix(1).lowercased() + rest.dropFirst()
        }

        /// The HealthKit constant's name, such as `HKWorkoutActivityTypeRunning`.
        public var healthKitName: String { Self.prefix + name.prefix(1).uppercased() + name.dropFirst() }

        /// Whether the name is one of the types listed as constants here.
        public var isListed: Bool { Self.listed.contains(self) }

        /// The case name.
        public var description: String { name }

        private static let prefix = "HKWorkoutActivityType"

        /// Running.
        public static let running = ActivityType(name: "running")
        /// Walking.
        public static let walking = ActivityType(name: "walking")
        /// Cycling.
        public static let cycling = ActivityType(name: "cycling")
        /// Swimming.
        public static let swimming = ActivityType(name: "swimming")
        /// Hiking.
        public static let hiking = ActivityType(name: "hiking")
        /// Yoga.
        public static let yoga = ActivityType(name: "yoga")
        /// Elliptical.
        public static let elliptical = ActivityType(name: "elliptical")
        /// Rowing.
        public static let rowing = ActivityType(name: "rowing")
        /// Functional strength training.
        public static let functionalStrengthTraining = ActivityType(name: "functionalStrengthTraining")
        /// Traditional strength training.
        public static let traditionalStrengthTraining = ActivityType(name: "traditionalStrengthTraining")
        /// High-intensity interval training.
        public static let highIntensityIntervalTraining = ActivityType(name: "highIntensityIntervalTraining")
        /// Core training.
        public static let coreTraining = ActivityType(name: "coreTraining")
        /// Mixed cardio.
        public static let mixedCardio = ActivityType(name: "mixedCardio")
        /// Stair climbing.
        public static let stairClimbing = ActivityType(name: "stairClimbing")
        /// Pilates.
        public static let pilates = ActivityType(name: "pilates")
        /// Dance.
        public static let dance = ActivityType(name: "dance")
        /// Cooldown.
        public static let cooldown = ActivityType(name: "cooldown")
        /// A multisport swim, bike and run.
        public static let swimBikeRun = ActivityType(name: "swimBikeRun")
        /// A transition between the activities of a multisport workout.
        public static let transition = ActivityType(name: "transition")
        /// Any other activity.
        public static let other = ActivityType(name: "other")

        /// The constants above.
        public static let listed: Set<ActivityType> = [
            .running, .walking, .cycling, .swimming, .hiking, .yoga, .elliptical, .rowing,
            .functionalStrengthTraining, .traditionalStrengthTraining, .highIntensityIntervalTraining, .coreTraining,
            .mixedCardio, .stairClimbing, .pilates, .dance, .cooldown, .swimBikeRun, .transition, .other,
        ]

        /// Decodes the case name.
        ///
        /// - Throws: `DecodingError` unless the value is a string.
        public init(from decoder: any Decoder) throws {
            self.init(name: try decoder.singleValueContainer().decode(String.self))
        }

        /// Encodes the case name.
        ///
        /// - Throws: Whatever the encoder throws.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }

    /// A pause, resume, lap, marker or segment — `HKWorkoutEvent`, its date interval as start and end.
    public struct Event: Hashable, Sendable {
        /// HealthKit's `HKWorkoutEventType`, with its raw values.
        public enum EventType: Int, CaseIterable, Hashable, Sendable, Codable {
            /// The workout paused.
            case pause = 1
            /// The workout resumed.
            case resume = 2
            /// A lap.
            case lap = 3
            /// A marker.
            case marker = 4
            /// Motion paused (automatic).
            case motionPaused = 5
            /// Motion resumed (automatic).
            case motionResumed = 6
            /// A segment.
            case segment = 7
            /// The person asked to pause or resume.
            case pauseOrResumeRequest = 8

            /// The constant's name, such as `HKWorkoutEventTypePause`.
            public var healthKitName: String {
                let name = String(describing: self)
                return "HKWorkoutEventType" + name.prefix(1).uppercased() + name.dropFirst()
            }

            /// The event type a HealthKit constant name (`HKWorkoutEventTypeLap`) names, or `nil`.
            ///
            /// - Parameter healthKitName: The constant's name as exports write it.
            public init?(healthKitName: String) {
                guard let type = Self.allCases.first(where: { $0.healthKitName == healthKitName }) else { return nil }
                self = type
            }
        }

        /// What happened.
        public let type: EventType
        /// When it began.
        public let startDate: Date
        /// When it ended (equal to `startDate` for an instant such as a pause).
        public let endDate: Date
        /// Extra information.
        public let metadata: [MetadataKey: MetadataValue]

        /// An event; the workout that holds it checks its dates.
        ///
        /// - Parameters:
        ///   - type: What happened.
        ///   - start: When it began.
        ///   - end: When it ended; not before `start`.
        ///   - metadata: Extra information.
        public init(type: EventType, start: Date, end: Date, metadata: [MetadataKey: MetadataValue] = [:]) {
            self.type = type
            self.startDate = start
            self.endDate = end
            self.metadata = metadata
        }
    }

    /// A quantity type's figures over a workout or one of its activities — `HKStatistics` as
    /// `HKWorkout.statistics(for:)` returns it: a sum for cumulative types, an average, minimum and maximum for
    /// discrete ones.
    public struct Statistics: Hashable, Sendable {
        /// The quantity type.
        public let type: HealthObjectType
        /// When the figures begin.
        public let startDate: Date
        /// When they end.
        public let endDate: Date
        /// The total.
        public let sum: HealthQuantity?
        /// The average.
        public let average: HealthQuantity?
        /// The lowest value.
        public let minimum: HealthQuantity?
        /// The highest value.
        public let maximum: HealthQuantity?

        /// Figures for one quantity type; the workout that holds them checks them.
        ///
        /// - Parameters:
        ///   - type: A quantity type.
        ///   - start: When the figures begin.
        ///   - end: When they end; not before `start`.
        ///   - sum: The total, in a unit of `type`.
        ///   - average: The average, in a unit of `type`.
        ///   - minimum: The lowest value, in a unit of `type`.
        ///   - maximum: The highest value, in a unit of `type`.
        public init(
            type: HealthObjectType, start: Date, end: Date, sum: HealthQuantity? = nil, average: HealthQuantity? = nil,
            minimum: HealthQuantity? = nil, maximum: HealthQuantity? = nil
        ) {
            self.type = type
            self.startDate = start
            self.endDate = end
            self.sum = sum
            self.average = average
            self.minimum = minimum
            self.maximum = maximum
        }

        /// The figures with their field names, in a fixed order.
        var fields: [(name: String, quantity: HealthQuantity?)] {
            [("sum", sum), ("average", average), ("minimum", minimum), ("maximum", maximum)]
        }
    }

    /// One activity of a workout — `HKWorkoutActivity`: a leg of a multisport workout, or the one activity of a
    /// workout recorded on watchOS 9 or later.
    public struct Activity: Hashable, Sendable {
        /// The activity's identity.
        public let uuid: UUID
        /// What the person did.
        public let activityType: ActivityType
        /// When it began.
        public let startDate: Date
        /// When it ended.
        public let endDate: Date
        /// Pauses, laps and markers within the activity.
        public let events: [Event]
        /// Figures per quantity type, in type identifier order.
        public let statistics: [Statistics]
        /// Extra information.
        public let metadata: [MetadataKey: MetadataValue]

        /// An activity; the workout that holds it checks it.
        ///
        /// - Parameters:
        ///   - activityType: What the person did.
        ///   - start: When it began.
        ///   - end: When it ended.
        ///   - events: Events within `start...end`.
        ///   - statistics: At most one entry per quantity type (any order; kept in type identifier order).
        ///   - metadata: Extra information.
        ///   - uuid: The identity; a fresh one by default.
        public init(
            activityType: ActivityType, start: Date, end: Date, events: [Event] = [], statistics: [Statistics] = [],
            metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
        ) {
            self.uuid = uuid
            self.activityType = activityType
            self.startDate = start
            self.endDate = end
            self.events = events
            self.statistics = statistics.sorted { $0.type.identifier < $1.type.identifier }
            self.metadata = metadata
        }
    }

    /// The sample's identity.
    public let uuid: UUID
    /// Always `HealthObjectType.workout`.
    public var type: HealthObjectType { .workout }
    /// What the person did.
    public let activityType: ActivityType
    /// When the workout began.
    public let startDate: Date
    /// When it ended.
    public let endDate: Date
    /// Seconds of activity (the interval less pauses, as recorded).
    public let duration: TimeInterval
    /// Energy burned (an energy quantity), if recorded.
    public let totalEnergyBurned: HealthQuantity?
    /// Distance covered (a length quantity), if recorded.
    public let totalDistance: HealthQuantity?
    /// Swimming strokes (a `count` quantity), if recorded.
    public let totalSwimmingStrokeCount: HealthQuantity?
    /// Flights climbed (a `count` quantity), if recorded.
    public let totalFlightsClimbed: HealthQuantity?
    /// Pauses, laps and markers, in the order given.
    public let events: [Event]
    /// The activities (legs), in the order given.
    public let activities: [Activity]
    /// Figures per quantity type, in type identifier order.
    public let statistics: [Statistics]
    /// The app that saved the workout.
    public let source: HealthSource
    /// Extra information.
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a validated workout.
    ///
    /// - Parameters:
    ///   - activityType: What the person did.
    ///   - start: When it began.
    ///   - end: When it ended; not before `start`.
    ///   - duration: Seconds of activity; finite and not negative. `nil` means `end - start`.
    ///   - totalEnergyBurned: An energy quantity, or `nil`.
    ///   - totalDistance: A length quantity, or `nil`.
    ///   - totalSwimmingStrokeCount: A `count` quantity, or `nil`.
    ///   - totalFlightsClimbed: A `count` quantity, or `nil`.
    ///   - events: Events within `start...end`.
    ///   - activities: Activities within `start...end`, each with its events within its own interval.
    ///   - statistics: At most one entry per quantity type (kept in type identifier order).
    ///   - source: The app that saved it.
    ///   - metadata: Extra information.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError` — `.invalidDate`, `.endBeforeStart`, `.nonFiniteValue`, `.negativeValue`,
    ///   `.incompatibleUnit`, `.wrongKind` or `.notASampleType` (a statistics type),
    ///   `.workoutIntervalOutOfRange` (an event or activity outside its interval, or ending before it starts),
    ///   `.duplicateWorkoutStatistics` or `.invalidMetadataValue`.
    /// - Complexity: O(n log n) in the number of events, activities and statistics.
    public init(
        activityType: ActivityType, start: Date, end: Date, duration: TimeInterval? = nil,
        totalEnergyBurned: HealthQuantity? = nil, totalDistance: HealthQuantity? = nil,
        totalSwimmingStrokeCount: HealthQuantity? = nil, totalFlightsClimbed: HealthQuantity? = nil,
        events: [Event] = [], activities: [Activity] = [], statistics: [Statistics] = [], source: HealthSource,
        metadata: [MetadataKey: MetadataValue] = [:], uuid: UUID = UUID()
    ) throws(ValidationError) {
        let type = HealthObjectType.workout
        try SampleValidation.validateCommonFields(type, start: start, end: end, metadata: metadata)
        let duration = duration ?? end.timeIntervalSince(start)
        guard duration.isFinite else { throw .nonFiniteValue(type, field: "duration", value: duration) }
        guard duration >= 0 else { throw .negativeValue(type, field: "duration", value: duration) }
        let totals: [(String, HealthQuantity?, HealthUnit)] = [
            ("totalEnergyBurned", totalEnergyBurned, .kilocalorie()), ("totalDistance", totalDistance, .meter()),
            ("totalSwimmingStrokeCount", totalSwimmingStrokeCount, .count()),
            ("totalFlightsClimbed", totalFlightsClimbed, .count()),
        ]
        for (field, quantity, unit) in totals {
            guard let quantity else { continue }
            try SampleValidation.validateQuantity(
                quantity, of: type, field: field, expected: unit, allowsNegative: false)
        }
        try Self.validate(events: events, field: "events", within: start, end)
        try Self.validate(statistics: statistics, field: "statistics")
        for (index, activity) in activities.enumerated() {
            let field = "activities[\(index)]"
            try Self.validate(interval: activity.startDate, activity.endDate, field: field, within: start, end)
            try Self.validate(
                events: activity.events, field: field + ".events", within: activity.startDate, activity.endDate)
            try Self.validate(statistics: activity.statistics, field: field + ".statistics")
            try SampleValidation.validateCommonFields(
                type, start: activity.startDate, end: activity.endDate, metadata: activity.metadata)
        }
        self.uuid = uuid
        self.activityType = activityType
        self.startDate = start
        self.endDate = end
        self.duration = duration
        self.totalEnergyBurned = totalEnergyBurned
        self.totalDistance = totalDistance
        self.totalSwimmingStrokeCount = totalSwimmingStrokeCount
        self.totalFlightsClimbed = totalFlightsClimbed
        self.events = events
        self.activities = activities
        self.statistics = statistics.sorted { $0.type.identifier < $1.type.identifier }
        self.source = source
        self.metadata = metadata
    }

    /// The figures for a quantity type, or `nil` — `HKWorkout.statistics(for:)`.
    ///
    /// - Parameter type: A quantity type.
    /// - Returns: The entry for `type`, if the workout has one.
    public func statistics(for type: HealthObjectType) -> Statistics? {
        statistics.first { $0.type == type }
    }

    private static func validate(
        interval start: Date, _ end: Date, field: String, within outerStart: Date, _ outerEnd: Date
    )
        throws(ValidationError)
    {
        guard start.timeIntervalSinceReferenceDate.isFinite, end.timeIntervalSinceReferenceDate.isFinite else {
            throw .invalidDate(.workout, field: field)
        }
        guard start <= end, start >= outerStart, end <= outerEnd else {
            throw .workoutIntervalOutOfRange(field: field, start: start, end: end)
        }
    }

    private static func validate(events: [Event], field: String, within start: Date, _ end: Date)
        throws(ValidationError)
    {
        for (index, event) in events.enumerated() {
            let field = "\(field)[\(index)]"
            try validate(interval: event.startDate, event.endDate, field: field, within: start, end)
            try SampleValidation.validateCommonFields(
                .workout, start: event.startDate, end: event.endDate, metadata: event.metadata)
        }
    }

    private static func validate(statistics: [Statistics], field: String) throws(ValidationError) {
        var seen = Set<HealthObjectType>()
        for (index, entry) in statistics.enumerated() {
            try SampleValidation.requireKind(entry.type, .quantity)
            guard let unit = entry.type.canonicalUnit else { throw .wrongKind(entry.type, expected: .quantity) }
            guard seen.insert(entry.type).inserted else {
                throw .duplicateWorkoutStatistics(field: field, type: entry.type)
            }
            guard entry.startDate.timeIntervalSinceReferenceDate.isFinite,
                entry.endDate.timeIntervalSinceReferenceDate.isFinite
            else { throw .invalidDate(.workout, field: "\(field)[\(index)]") }
            guard entry.endDate >= entry.startDate else {
                throw .workoutIntervalOutOfRange(
                    field: "\(field)[\(index)]", start: entry.startDate, end: entry.endDate)
            }
            for (name, quantity) in entry.fields {
                guard let quantity else { continue }
                try SampleValidation.validateQuantity(
                    quantity, of: entry.type, field: "\(field)[\(index)].\(name)", expected: unit,
                    allowsNegative: entry.type.allowsNegativeValues)
            }
        }
    }
}

extension HealthWorkout {
    /// The workout made again through the validating initializer (a store checks every sample it is handed).
    func revalidated(source: HealthSource? = nil) throws(ValidationError) -> HealthWorkout {
        try HealthWorkout(
            activityType: activityType, start: startDate, end: endDate, duration: duration,
            totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance,
            totalSwimmingStrokeCount: totalSwimmingStrokeCount, totalFlightsClimbed: totalFlightsClimbed,
            events: events, activities: activities, statistics: statistics, source: source ?? self.source,
            metadata: metadata, uuid: uuid)
    }
}

extension HealthWorkout: Codable {
    private enum CodingKeys: String, SampleCodingKey {
        case uuid, type, startDate, endDate, source, metadata, activityType, duration, totalEnergyBurned
        case totalDistance, totalSwimmingStrokeCount, totalFlightsClimbed, events, activities, statistics
    }

    /// Decodes and validates a workout; absent totals, events, activities and statistics decode as none.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` when the decoded workout breaks a rule.
    public init(from decoder: any Decoder) throws {
        self = try SampleCoding<CodingKeys>.decode(decoder) { shared, container in
            try HealthWorkout(
                activityType: try container.decode(ActivityType.self, forKey: .activityType), start: shared.start,
                end: shared.end, duration: try container.decode(TimeInterval.self, forKey: .duration),
                totalEnergyBurned: try container.decodeIfPresent(HealthQuantity.self, forKey: .totalEnergyBurned),
                totalDistance: try container.decodeIfPresent(HealthQuantity.self, forKey: .totalDistance),
                totalSwimmingStrokeCount: try container.decodeIfPresent(
                    HealthQuantity.self, forKey: .totalSwimmingStrokeCount),
                totalFlightsClimbed: try container.decodeIfPresent(HealthQuantity.self, forKey: .totalFlightsClimbed),
                events: try container.decodeIfPresent([Event].self, forKey: .events) ?? [],
                activities: try container.decodeIfPresent([Activity].self, forKey: .activities) ?? [],
                statistics: try container.decodeIfPresent([Statistics].self, forKey: .statistics) ?? [],
                source: shared.source, metadata: shared.metadata, uuid: shared.uuid)
        }
    }

    /// Encodes the workout's fields (with `"type": "workout"` for readers of the JSON).
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activityType, forKey: .activityType)
        try container.encode(duration, forKey: .duration)
        try container.encodeIfPresent(totalEnergyBurned, forKey: .totalEnergyBurned)
        try container.encodeIfPresent(totalDistance, forKey: .totalDistance)
        try container.encodeIfPresent(totalSwimmingStrokeCount, forKey: .totalSwimmingStrokeCount)
        try container.encodeIfPresent(totalFlightsClimbed, forKey: .totalFlightsClimbed)
        try container.encode(events, forKey: .events)
        try container.encode(activities, forKey: .activities)
        try container.encode(statistics, forKey: .statistics)
        try SampleCoding.encode(
            uuid: uuid, type: type, start: startDate, end: endDate, source: source, metadata: metadata,
            into: &container)
    }
}

extension HealthWorkout.Event: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, startDate, endDate, metadata
    }

    /// Decodes an event (`type` is `HKWorkoutEventType`'s raw value); the workout holding it checks it.
    ///
    /// - Throws: `DecodingError` for a missing field or an unknown event type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decode(EventType.self, forKey: .type),
            start: try container.decode(Date.self, forKey: .startDate),
            end: try container.decode(Date.self, forKey: .endDate),
            metadata: try container.decodeIfPresent([MetadataKey: MetadataValue].self, forKey: .metadata) ?? [:])
    }

    /// Encodes the event's fields.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(metadata, forKey: .metadata)
    }
}

extension HealthWorkout.Statistics: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, startDate, endDate, sum, average, minimum, maximum
    }

    /// Decodes the figures; the workout holding them checks them.
    ///
    /// - Throws: `DecodingError` for a missing field or an unknown type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decode(HealthObjectType.self, forKey: .type),
            start: try container.decode(Date.self, forKey: .startDate),
            end: try container.decode(Date.self, forKey: .endDate),
            sum: try container.decodeIfPresent(HealthQuantity.self, forKey: .sum),
            average: try container.decodeIfPresent(HealthQuantity.self, forKey: .average),
            minimum: try container.decodeIfPresent(HealthQuantity.self, forKey: .minimum),
            maximum: try container.decodeIfPresent(HealthQuantity.self, forKey: .maximum))
    }

    /// Encodes the figures present.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encodeIfPresent(sum, forKey: .sum)
        try container.encodeIfPresent(average, forKey: .average)
        try container.encodeIfPresent(minimum, forKey: .minimum)
        try container.encodeIfPresent(maximum, forKey: .maximum)
    }
}

extension HealthWorkout.Activity: Codable {
    private enum CodingKeys: String, CodingKey {
        case uuid, activityType, startDate, endDate, events, statistics, metadata
    }

    /// Decodes an activity; the workout holding it checks it.
    ///
    /// - Throws: `DecodingError` for a missing field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            activityType: try container.decode(HealthWorkout.ActivityType.self, forKey: .activityType),
            start: try container.decode(Date.self, forKey: .startDate),
            end: try container.decode(Date.self, forKey: .endDate),
            events: try container.decodeIfPresent([HealthWorkout.Event].self, forKey: .events) ?? [],
            statistics: try container.decodeIfPresent([HealthWorkout.Statistics].self, forKey: .statistics) ?? [],
            metadata: try container.decodeIfPresent([MetadataKey: MetadataValue].self, forKey: .metadata) ?? [:],
            uuid: try container.decode(UUID.self, forKey: .uuid))
    }

    /// Encodes the activity's fields.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uuid, forKey: .uuid)
        try container.encode(activityType, forKey: .activityType)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(events, forKey: .events)
        try container.encode(statistics, forKey: .statistics)
        try container.encode(metadata, forKey: .metadata)
    }
}
