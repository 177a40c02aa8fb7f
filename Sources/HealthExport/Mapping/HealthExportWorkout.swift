import Foundation
import HealthFlow

/// A `Workout` of the export, kept whole: HealthFlow's store holds no workout samples, so the import returns
/// workouts in its report rather than dropping them.
public struct HealthExportWorkout: Hashable, Sendable {
    /// A pause, resume, lap, segment or marker.
    public struct Event: Hashable, Sendable {
        /// As written, e.g. `HKWorkoutEventTypePause`.
        public let type: String
        /// When it happened.
        public let date: Date
        /// How long it lasted (a time unit), when written.
        public let duration: HealthQuantity?
    }

    /// A per-type total or average over the workout (or one of its activities).
    public struct Statistics: Hashable, Sendable {
        /// The quantity type as written, e.g. `HKQuantityTypeIdentifierActiveEnergyBurned`.
        public let type: String
        /// When it began.
        public let startDate: Date
        /// When it ended.
        public let endDate: Date
        /// The total, for cumulative types.
        public let sum: HealthQuantity?
        /// The average, for discrete types.
        public let average: HealthQuantity?
        /// The lowest value, for discrete types.
        public let minimum: HealthQuantity?
        /// The highest value, for discrete types.
        public let maximum: HealthQuantity?
    }

    /// One activity of a multisport workout (or the one activity of any workout in newer exports).
    public struct Activity: Hashable, Sendable {
        /// The activity's UUID as the export writes it.
        public let uuid: String?
        /// When it began.
        public let startDate: Date
        /// When it ended.
        public let endDate: Date
        /// How long it lasted (a time unit), when written.
        public let duration: HealthQuantity?
        /// Pauses, laps and markers, in file order.
        public let events: [Event]
        /// Totals and averages per quantity type.
        public let statistics: [Statistics]
        /// `MetadataEntry` children, kept as written (see ``MetadataKey/exportSourceVersion`` and its neighbours).
        public let metadata: [MetadataKey: MetadataValue]
    }

    /// The workout's identity, derived from its content like every imported record's.
    public let uuid: UUID
    /// As written, e.g. `HKWorkoutActivityTypeRunning`.
    public let activityType: String
    /// When it began.
    public let startDate: Date
    /// When it ended.
    public let endDate: Date
    /// How long it lasted (a time unit), when written.
    public let duration: HealthQuantity?
    /// The distance older exports write on the workout itself.
    public let totalDistance: HealthQuantity?
    /// The energy older exports write on the workout itself.
    public let totalEnergyBurned: HealthQuantity?
    /// Who recorded it (see ``HealthSource/exported(name:)``).
    public let source: HealthSource
    /// `MetadataEntry` children, kept as written (see ``MetadataKey/exportSourceVersion`` and its neighbours).
    public let metadata: [MetadataKey: MetadataValue]
    /// Pauses, laps and markers, in file order.
    public let events: [Event]
    /// Totals and averages per quantity type.
    public let statistics: [Statistics]
    /// The activities (`WorkoutActivity`) of newer exports.
    public let activities: [Activity]
    /// The route files (`/workout-routes/route_….gpx`), relative to the export folder.
    public let routeFiles: [String]
    /// The 1-based line of the `Workout` start tag.
    public let line: Int
}
