import Foundation

/// A series of heartbeats — the counterpart of `HKHeartbeatSeriesSample`, a sample of its own type
/// (`HKSeriesType.heartbeat()`, ``HealthObjectType/heartbeatSeries``) separate from the heart rate variability
/// quantity sample recorded with it.
///
/// The beats are not part of the sample, as in HealthKit (where a ``HealthHeartbeatSeriesQuery`` streams them):
/// a ``HeartbeatSeriesRecording`` holds the sample with its beats, checked by ``validateHeartbeats(_:)``; the
/// stores keep them beside it.
public struct HealthHeartbeatSeries: Hashable, Sendable {
    /// The sample's identity.
    public let uuid: UUID
    /// Always `HealthObjectType.heartbeatSeries`.
    public var type: HealthObjectType { .heartbeatSeries }
    /// When the series began: each beat's time is counted from it.
    public let startDate: Date
    /// When it ended.
    public let endDate: Date
    /// How many heartbeats the series holds (HealthKit's `HKSeriesSample.count`).
    public let count: Int
    /// The app or device that made the series.
    public let source: HealthSource
    /// Extra information.
    public let metadata: [MetadataKey: MetadataValue]

    /// Makes a validated heartbeat series sample.
    ///
    /// - Parameters:
    ///   - start: When the series began.
    ///   - end: When it ended; not before `start`.
    ///   - count: The number of heartbeats; not negative.
    ///   - source: The app or device.
    ///   - metadata: Extra information.
    ///   - uuid: The identity; a fresh one by default.
    /// - Throws: `ValidationError` — `.negativeValue`, `.invalidDate`, `.endBeforeStart` or
    ///   `.invalidMetadataValue`.
    public init(
        start: Date, end: Date, count: Int, source: HealthSource, metadata: [MetadataKey: MetadataValue] = [:],
        uuid: UUID = UUID()
    ) throws(ValidationError) {
        let type = HealthObjectType.heartbeatSeries
        guard count >= 0 else { throw .negativeValue(type, field: "count", value: Double(count)) }
        try SampleValidation.validateCommonFields(type, start: start, end: end, metadata: metadata)
        self.uuid = uuid
        self.startDate = start
        self.endDate = end
        self.count = count
        self.source = source
        self.metadata = metadata
    }

    /// Checks that heartbeats belong to this series: exactly `count` of them, with finite times, the first not
    /// negative and each later than the one before it (as `HKHeartbeatSeriesBuilder` requires of the times it
    /// adds). A beat may fall after `endDate`: HealthKit does not bound the times by the sample's interval.
    ///
    /// - Parameter heartbeats: The beats, in time order.
    /// - Throws: `ValidationError.heartbeatCountMismatch` or `.heartbeatTimeOutOfOrder`.
    /// - Complexity: O(n) in the number of beats.
    public func validateHeartbeats(_ heartbeats: [HealthHeartbeat]) throws(ValidationError) {
        guard heartbeats.count == count else {
            throw .heartbeatCountMismatch(expected: count, actual: heartbeats.count)
        }
        var previous = -Double.infinity
        for (index, beat) in heartbeats.enumerated() {
            let time = beat.timeSinceSeriesStart
            guard time.isFinite, time >= 0, time > previous else {
                throw .heartbeatTimeOutOfOrder(index: index, timeSinceSeriesStart: time)
            }
            previous = time
        }
    }
}

extension HealthHeartbeatSeries: Codable {
    private enum CodingKeys: String, SampleCodingKey {
        case uuid, type, startDate, endDate, count, source, metadata
    }

    /// Decodes and validates a heartbeat series sample.
    ///
    /// - Throws: `DecodingError`, including `.dataCorrupted` when the decoded sample breaks a rule.
    public init(from decoder: any Decoder) throws {
        self = try SampleCoding<CodingKeys>.decode(decoder) { shared, container in
            try HealthHeartbeatSeries(
                start: shared.start, end: shared.end, count: try container.decode(Int.self, forKey: .count),
                source: shared.source, metadata: shared.metadata, uuid: shared.uuid)
        }
    }

    /// Encodes the sample's fields (with `"type": "heartbeatSeries"` for readers of the JSON).
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try SampleCoding.encode(
            uuid: uuid, type: type, start: startDate, end: endDate, source: source, metadata: metadata,
            into: &container)
    }
}

/// One heartbeat of a series (HealthKit's `HKHeartbeatSeriesQueryDescriptor.Heartbeat`): its time since the
/// series' start and whether beats may be missing before it.
public struct HealthHeartbeat: Hashable, Sendable, Codable {
    /// Seconds since the series' `startDate`.
    public let timeSinceSeriesStart: TimeInterval
    /// Whether the sensor lost contact before this beat, so that beats may be missing between it and the one
    /// before it (the interval between the two is then no beat-to-beat interval).
    public let precededByGap: Bool

    /// Makes a heartbeat; `HealthHeartbeatSeries.validateHeartbeats(_:)` checks a whole series.
    ///
    /// - Parameters:
    ///   - timeSinceSeriesStart: Seconds since the series' start.
    ///   - precededByGap: Whether beats may be missing before this one.
    public init(timeSinceSeriesStart: TimeInterval, precededByGap: Bool = false) {
        self.timeSinceSeriesStart = timeSinceSeriesStart
        self.precededByGap = precededByGap
    }
}

/// A heartbeat series sample with its beats: what a watch hands to HealthKit through `HKHeartbeatSeriesBuilder`,
/// and what the `ingest(_:)` of ``InMemoryHealthStore`` and ``FileHealthStore`` keep, so that a
/// ``HealthHeartbeatSeriesQuery`` reads the beats back.
///
/// The beats are checked against the sample when the recording is made
/// (``HealthHeartbeatSeries/validateHeartbeats(_:)``), so a recording is always consistent. Memory: 9 bytes per
/// beat (a one-minute series at 60 bpm is 60 beats).
public struct HeartbeatSeriesRecording: Hashable, Sendable {
    /// The series sample.
    public let series: HealthHeartbeatSeries
    /// Its beats, in time order.
    public let heartbeats: [HealthHeartbeat]

    /// A recording whose beats belong to `series`.
    ///
    /// - Throws: What ``HealthHeartbeatSeries/validateHeartbeats(_:)`` throws: the count differs from the series'
    ///   `count`, or a time is not finite, negative or out of order.
    /// - Complexity: O(n) in the number of beats.
    public init(series: HealthHeartbeatSeries, heartbeats: [HealthHeartbeat]) throws(ValidationError) {
        try series.validateHeartbeats(heartbeats)
        self.series = series
        self.heartbeats = heartbeats
    }
}
