import Foundation

/// The path of a workout — the counterpart of `HKWorkoutRoute`: locations in time order, as a watch or phone
/// recorded them (`CLLocation`'s fields).
///
/// A route is not a sample of its own here: it is kept beside its workout, as an ECG's voltage measurements are
/// kept beside the ECG. A ``WorkoutRecording`` holds a workout with its routes; the `ingest(_:)` of
/// ``InMemoryHealthStore`` and ``FileHealthStore`` keep them, and ``HealthWorkoutRouteQuery`` reads them back.
/// Memory: 64 bytes per location (an hour at one location a second is 225 KiB).
public struct HealthWorkoutRoute: Hashable, Sendable {
    /// One location (`CLLocation`): where and when, with the accuracy of each. As in Core Location, a negative
    /// speed, course or accuracy means "not known".
    public struct Location: Hashable, Sendable, Codable {
        /// When the location was measured.
        public let timestamp: Date
        /// Degrees north, -90...90 (WGS 84).
        public let latitude: Double
        /// Degrees east, -180...180 (WGS 84).
        public let longitude: Double
        /// Metres above sea level.
        public let altitude: Double
        /// Metres per second; negative when not known.
        public let speed: Double
        /// Degrees clockwise from true north, 0..<360; negative when not known.
        public let course: Double
        /// The radius of uncertainty of `latitude` and `longitude`, in metres; negative when not known.
        public let horizontalAccuracy: Double
        /// The uncertainty of `altitude`, in metres; negative when not known.
        public let verticalAccuracy: Double

        /// A location; ``HealthWorkoutRoute/init(locations:)`` checks it.
        ///
        /// - Parameters:
        ///   - timestamp: When it was measured.
        ///   - latitude: Degrees north.
        ///   - longitude: Degrees east.
        ///   - altitude: Metres above sea level.
        ///   - speed: Metres per second, or -1.
        ///   - course: Degrees from true north, or -1.
        ///   - horizontalAccuracy: Metres, or -1.
        ///   - verticalAccuracy: Metres, or -1.
        public init(
            timestamp: Date, latitude: Double, longitude: Double, altitude: Double = 0, speed: Double = -1,
            course: Double = -1, horizontalAccuracy: Double = -1, verticalAccuracy: Double = -1
        ) {
            self.timestamp = timestamp
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.speed = speed
            self.course = course
            self.horizontalAccuracy = horizontalAccuracy
            self.verticalAccuracy = verticalAccuracy
        }

        /// The numeric fields with their names, in a fixed order.
        var fields: [(name: String, value: Double)] {
            [
                ("timestamp", timestamp.timeIntervalSinceReferenceDate), ("latitude", latitude),
                ("longitude", longitude), ("altitude", altitude), ("speed", speed), ("course", course),
                ("horizontalAccuracy", horizontalAccuracy), ("verticalAccuracy", verticalAccuracy),
            ]
        }
    }

    /// The locations, in time order.
    public let locations: [Location]

    /// A route of checked locations.
    ///
    /// - Parameter locations: Every field finite, latitude within -90...90, longitude within -180...180, and
    ///   timestamps never decreasing.
    /// - Throws: ``ValidationError/invalidRouteLocation(index:field:)`` naming the first location and field at
    ///   fault.
    /// - Complexity: O(n) in the number of locations.
    public init(locations: [Location]) throws(ValidationError) {
        var previous = -Double.infinity
        for (index, location) in locations.enumerated() {
            for (name, value) in location.fields where !value.isFinite {
                throw .invalidRouteLocation(index: index, field: name)
            }
            guard abs(location.latitude) <= 90 else { throw .invalidRouteLocation(index: index, field: "latitude") }
            guard abs(location.longitude) <= 180 else {
                throw .invalidRouteLocation(index: index, field: "longitude")
            }
            let time = location.timestamp.timeIntervalSinceReferenceDate
            guard time >= previous else { throw .invalidRouteLocation(index: index, field: "timestamp") }
            previous = time
        }
        self.locations = locations
    }
}

extension HealthWorkoutRoute: Codable {
    /// Decodes and checks a route: `{"locations": [...]}`.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` when a location breaks a rule.
    public init(from decoder: any Decoder) throws {
        let locations = try decoder.container(keyedBy: CodingKeys.self).decode([Location].self, forKey: .locations)
        do {
            try self.init(locations: locations)
        } catch {
            throw DecodingError.invalidSample(error, in: decoder)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case locations
    }

    /// Encodes `{"locations": [...]}`.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(locations, forKey: .locations)
    }
}

/// A workout with its routes: what a watch hands to HealthKit, and what the `ingest(_:)` of
/// ``InMemoryHealthStore`` and ``FileHealthStore`` keep, so that a ``HealthWorkoutRouteQuery`` reads the routes
/// back. A workout may have several routes (one per `WorkoutRoute` of an export), or none.
public struct WorkoutRecording: Hashable, Sendable {
    /// The workout.
    public let workout: HealthWorkout
    /// Its routes, in the order given.
    public let routes: [HealthWorkoutRoute]

    /// A workout with its routes (each route was checked when made).
    ///
    /// - Parameters:
    ///   - workout: The workout.
    ///   - routes: Its routes.
    public init(workout: HealthWorkout, routes: [HealthWorkoutRoute]) {
        self.workout = workout
        self.routes = routes
    }
}
