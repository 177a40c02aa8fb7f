import Foundation

/// The kinds of series data a store keeps beside a sample — the one mechanism behind an ECG's voltage
/// measurements, a workout's routes and a heartbeat series' beats. Each kind names the type of the sample it belongs to and the two durable
/// records that carry it: a journal record `sample series` (one sample ingested with its series) and a snapshot
/// record `uuid:16 series` (one live sample's series). The record kind is the series' tag, so records written
/// before the kinds shared this code read unchanged (``DurableStoreFormat``).
///
/// A new kind is a case here, a case of ``HealthSampleSeries`` with its codec, and a ``SeriesRecording`` type.
enum SeriesKind: CaseIterable, Sendable {
    /// An ECG's voltage measurements.
    case voltages
    /// A workout's routes.
    case routes
    /// A heartbeat series' beats.
    case heartbeats

    /// The type of the sample the series is kept beside.
    var sampleType: HealthObjectType {
        switch self {
        case .voltages: .electrocardiogram
        case .routes: .workout
        case .heartbeats: .heartbeatSeries
        }
    }

    /// The journal record of one sample ingested with a series of this kind.
    var journalRecord: RecordKind {
        switch self {
        case .voltages: .recording
        case .routes: .workoutRecording
        case .heartbeats: .heartbeatRecording
        }
    }

    /// The snapshot record of one live sample's series of this kind.
    var snapshotRecord: RecordKind {
        switch self {
        case .voltages: .voltages
        case .routes: .routes
        case .heartbeats: .heartbeats
        }
    }

    /// What damage reports call the series and its sample.
    var names: (series: String, sample: String) {
        switch self {
        case .voltages: ("voltages", "an ECG")
        case .routes: ("routes", "a workout")
        case .heartbeats: ("heartbeats", "a heartbeat series")
        }
    }

    /// The journal record of a series of this kind added to a stored sample, or `nil` when a series of this
    /// kind is kept only with its sample (an ECG's voltages and a heartbeat series' beats are all of its
    /// recording, made with it; a workout
    /// takes more routes after it was saved, as `HKWorkoutRouteBuilder` adds them to a saved workout).
    /// The sample takes the next sequence number with it (``StoreMutation/addSeries(_:_:announces:)``).
    var additionRecord: RecordKind? {
        switch self {
        case .voltages, .heartbeats: nil
        case .routes: .announcedRoutes
        }
    }

    /// The journal record an earlier version wrote for an addition of this kind, which did not announce the sample
    /// again, or `nil`.
    var legacyAdditionRecord: RecordKind? {
        switch self {
        case .voltages, .heartbeats: nil
        case .routes: .addedRoutes
        }
    }

    /// The kind whose addition record is `record` and whether the addition announces its sample again (this
    /// version's record) or not (an earlier version's, replayed as it was written), or `nil`.
    static func addition(record: RecordKind) -> (kind: SeriesKind, announces: Bool)? {
        if let kind = allCases.first(where: { $0.additionRecord == record }) { return (kind, true) }
        if let kind = allCases.first(where: { $0.legacyAdditionRecord == record }) { return (kind, false) }
        return nil
    }

    /// The kind kept beside samples of `type`, or `nil` when its samples keep none.
    init?(sampleType type: HealthObjectType) {
        guard let kind = Self.allCases.first(where: { $0.sampleType == type }) else { return nil }
        self = kind
    }

    /// The kind whose journal record is `record`, or `nil`.
    init?(journalRecord record: RecordKind) {
        guard let kind = Self.allCases.first(where: { $0.journalRecord == record }) else { return nil }
        self = kind
    }

    /// The kind whose snapshot record is `record`, or `nil`.
    init?(snapshotRecord record: RecordKind) {
        guard let kind = Self.allCases.first(where: { $0.snapshotRecord == record }) else { return nil }
        self = kind
    }
}

/// Series data kept beside a sample: an ECG's voltage measurements, a workout's routes or a heartbeat series'
/// beats. Stores keep them apart from the sample (they can be large: an ECG holds ~15,000 measurements) and read
/// them back only for the query of their kind. A ``HealthSeriesStoreBackend`` stores and returns them.
///
/// Encoded (without its kind, which the record or the sample's type gives):
///
/// ```text
/// voltages  = count:varint (timeSinceSampleStart:f64 microvolts:f64)*
/// routes    = count:varint (count:varint location*)*
/// heartbeats = count:varint (timeSinceSeriesStart:f64 precededByGap:u8)*
/// location  = timestamp:f64 latitude:f64 longitude:f64 altitude:f64 speed:f64 course:f64
///             horizontalAccuracy:f64 verticalAccuracy:f64
/// ```
public enum HealthSampleSeries: Hashable, Sendable {
    /// An ECG's voltage measurements, in recording order.
    case voltages([ElectrocardiogramVoltageMeasurement])
    /// A workout's routes, in the order given.
    case routes([HealthWorkoutRoute])
    /// A heartbeat series' beats, in time order.
    case heartbeats([HealthHeartbeat])

    var kind: SeriesKind {
        switch self {
        case .voltages: .voltages
        case .routes: .routes
        case .heartbeats: .heartbeats
        }
    }

    /// A series of `kind` that holds nothing.
    init(empty kind: SeriesKind) {
        switch kind {
        case .voltages: self = .voltages([])
        case .routes: self = .routes([])
        case .heartbeats: self = .heartbeats([])
        }
    }

    /// Whether the series holds nothing (a store keeps no empty series: reading one gives nothing either way).
    var isEmpty: Bool {
        switch self {
        case .voltages(let measurements): measurements.isEmpty
        case .routes(let routes): routes.isEmpty
        case .heartbeats(let beats): beats.isEmpty
        }
    }

    /// About the number of bytes ``encode(into:)`` writes (a buffer's capacity).
    var encodedSize: Int {
        switch self {
        case .voltages(let measurements): 10 + 16 * measurements.count
        case .routes(let routes): routes.reduce(10) { $0 + 10 + 64 * $1.locations.count }
        case .heartbeats(let beats): 10 + 9 * beats.count
        }
    }

    /// Why the series cannot be kept beside `sample` — a sample of another type than the kind's, or data that do
    /// not fit it (voltages: ``HealthElectrocardiogram/validateVoltageMeasurements(_:)``; heartbeats:
    /// ``HealthHeartbeatSeries/validateHeartbeats(_:)``) — or `nil`.
    /// - Complexity: O(n) in the series' elements.
    func problem(beside sample: HealthSample) -> String? {
        switch (self, sample) {
        case (.voltages(let measurements), .electrocardiogram(let electrocardiogram)):
            do throws(ValidationError) {
                try electrocardiogram.validateVoltageMeasurements(measurements)
                return nil
            } catch {
                return "voltages that do not fit their ECG"
            }
        case (.routes, .workout):
            return nil
        case (.heartbeats(let beats), .heartbeatSeries(let series)):
            do throws(ValidationError) {
                try series.validateHeartbeats(beats)
                return nil
            } catch {
                return "heartbeats that do not fit their series"
            }
        default:
            return "\(kind.names.series) beside a sample that is not \(kind.names.sample)"
        }
    }

    /// The series with `added` after it, for a kind that takes additions (``SeriesKind/additionRecord``) and
    /// `added` of the same kind; `nil` otherwise.
    func appending(_ added: HealthSampleSeries) -> HealthSampleSeries? {
        switch (self, added) {
        case (.routes(let routes), .routes(let more)): .routes(routes + more)
        default: nil
        }
    }

    /// Writes the series (without its kind: the record's kind is its tag).
    func encode(into writer: inout BinaryWriter) {
        switch self {
        case .voltages(let measurements):
            writer.count(measurements.count)
            for measurement in measurements {
                writer.double(measurement.timeSinceSampleStart)
                writer.double(measurement.microvolts)
            }
        case .routes(let routes):
            writer.count(routes.count)
            for route in routes {
                writer.count(route.locations.count)
                for location in route.locations {
                    for (_, value) in location.fields { writer.double(value) }
                }
            }
        case .heartbeats(let beats):
            writer.count(beats.count)
            for beat in beats {
                writer.double(beat.timeSinceSeriesStart)
                writer.byte(beat.precededByGap ? 1 : 0)
            }
        }
    }

    /// Reads a series of `kind` as ``encode(into:)`` writes it; each route is checked by
    /// ``HealthWorkoutRoute/init(locations:)`` (whether voltages fit their ECG, or beats their series, is
    /// ``problem(beside:)``'s to say).
    /// - Throws: A ``BinaryReader/Failure`` for bytes that are not such a series.
    static func decode(_ kind: SeriesKind, from reader: inout BinaryReader) throws(BinaryReader.Failure) -> Self {
        switch kind {
        case .voltages:
            let count = try reader.count(minimumSize: 16)
            var measurements: [ElectrocardiogramVoltageMeasurement] = []
            measurements.reserveCapacity(count)
            for _ in 0..<count {
                measurements.append(
                    ElectrocardiogramVoltageMeasurement(
                        timeSinceSampleStart: try reader.double(), microvolts: try reader.double()))
            }
            return .voltages(measurements)
        case .routes:
            let count = try reader.count()
            var routes: [HealthWorkoutRoute] = []
            routes.reserveCapacity(count)
            for _ in 0..<count { routes.append(try decodeRoute(from: &reader)) }
            return .routes(routes)
        case .heartbeats:
            let count = try reader.count(minimumSize: 9)
            var beats: [HealthHeartbeat] = []
            beats.reserveCapacity(count)
            for _ in 0..<count {
                let time = try reader.double()
                let gap = try reader.byte()
                guard gap <= 1 else { throw BinaryReader.Failure(reason: "a heartbeat's gap flag is not 0 or 1") }
                beats.append(HealthHeartbeat(timeSinceSeriesStart: time, precededByGap: gap == 1))
            }
            return .heartbeats(beats)
        }
    }

    private static func decodeRoute(from reader: inout BinaryReader) throws(BinaryReader.Failure) -> HealthWorkoutRoute
    {
        let count = try reader.count(minimumSize: 64)
        var locations: [HealthWorkoutRoute.Location] = []
        locations.reserveCapacity(count)
        for _ in 0..<count {
            locations.append(
                HealthWorkoutRoute.Location(
                    timestamp: Date(timeIntervalSinceReferenceDate: try reader.double()),
                    latitude: try reader.double(), longitude: try reader.double(), altitude: try reader.double(),
                    speed: try reader.double(), course: try reader.double(),
                    horizontalAccuracy: try reader.double(), verticalAccuracy: try reader.double()))
        }
        do throws(ValidationError) {
            return try HealthWorkoutRoute(locations: locations)
        } catch {
            throw BinaryReader.Failure(reason: "a workout route breaks the route rules")
        }
    }
}

/// A sample with the series kept beside it.
struct SeriesSample: Hashable, Sendable {
    let sample: HealthSample
    let series: HealthSampleSeries
}

extension [SeriesSample] {
    /// The samples, which an insert of these inserts.
    var samples: [HealthSample] { map(\.sample) }
}

/// A public recording type — a sample with series data of one kind, checked to fit it when the recording was
/// made — which a store's `ingest(_:)` keeps and the query of its kind reads back.
protocol SeriesRecording: Sendable {
    /// One element of the series (a voltage measurement, a route).
    associatedtype Element: Sendable

    /// The sample with its series.
    var seriesSample: SeriesSample { get }

    /// The elements of `series` when it is of this recording's kind; `nil` otherwise.
    static func elements(of series: HealthSampleSeries) -> [Element]?
}

extension ElectrocardiogramRecording: SeriesRecording {
    var seriesSample: SeriesSample {
        SeriesSample(sample: .electrocardiogram(electrocardiogram), series: .voltages(voltageMeasurements))
    }

    static func elements(of series: HealthSampleSeries) -> [ElectrocardiogramVoltageMeasurement]? {
        if case .voltages(let measurements) = series { measurements } else { nil }
    }
}

extension WorkoutRecording: SeriesRecording {
    var seriesSample: SeriesSample { SeriesSample(sample: .workout(workout), series: .routes(routes)) }

    static func elements(of series: HealthSampleSeries) -> [HealthWorkoutRoute]? {
        if case .routes(let routes) = series { routes } else { nil }
    }
}

extension HeartbeatSeriesRecording: SeriesRecording {
    var seriesSample: SeriesSample { SeriesSample(sample: .heartbeatSeries(series), series: .heartbeats(heartbeats)) }

    static func elements(of series: HealthSampleSeries) -> [HealthHeartbeat]? {
        if case .heartbeats(let beats) = series { beats } else { nil }
    }
}
