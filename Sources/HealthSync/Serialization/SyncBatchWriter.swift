import Foundation
import HealthFlow

/// Streams a sync batch as JSON to a sink, chunk by chunk, with a stable field order.
///
/// The writer is a hand-written emitter: it keeps one buffer of at most `chunkSize` bytes and hands it to the
/// sink whenever it fills, so a batch of any size is written in bounded memory — pass samples one at a time
/// (or as a lazy sequence) and nothing else is retained. The same input always produces the same bytes:
/// fields are written in the order below, metadata keys sorted, correlation members sorted by type then UUID.
///
/// The document (schema version 1, specified in `SyncBatchSchema.md` beside this file), pretty-printed here;
/// the writer emits it compact, on one line:
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "batchID": "6F1E3C1A-8B0D-4C55-9D5B-2C1F0E7A9B10",
///   "deviceID": "device-1",
///   "createdAt": "2026-11-20T10:00:00+00:00",
///   "sections": [
///     {
///       "type": "heartRate",
///       "samples": [
///         {
///           "uuid": "0B7C6D2E-1F3A-4B5C-8D9E-0A1B2C3D4E5F",
///           "type": "heartRate",
///           "kind": "quantity",
///           "start": "2026-11-20T09:00:00+00:00",
///           "end": "2026-11-20T09:00:00+00:00",
///           "source": { "bundleIdentifier": "com.example.watch", "name": "Watch" },
///           "value": 72,
///           "unit": "count/min",
///           "metadata": { "HKWasUserEntered": { "number": 1 } }
///         }
///       ],
///       "deleted": [ { "uuid": "9A8B7C6D-5E4F-4321-8765-0FEDCBA98765", "metadata": {} } ]
///     },
///     {
///       "type": "sleepAnalysis",
///       "samples": [ { "uuid": "…", "type": "sleepAnalysis", "kind": "category",
///                      "start": "…", "end": "…", "source": { … }, "value": 1, "metadata": {} } ],
///       "deleted": []
///     },
///     {
///       "type": "bloodPressure",
///       "samples": [ { "uuid": "…", "type": "bloodPressure", "kind": "correlation",
///                      "start": "…", "end": "…", "source": { … },
///                      "members": [ { …a quantity sample… }, { …a quantity sample… } ], "metadata": {} } ],
///       "deleted": []
///     },
///     {
///       "type": "electrocardiogram",
///       "samples": [ { "uuid": "…", "type": "electrocardiogram", "kind": "electrocardiogram",
///                      "start": "…", "end": "…", "source": { … },
///                      "classification": "sinusRhythm", "symptomsStatus": "none",
///                      "averageHeartRate": { "value": 1.1, "unit": "count/s" },
///                      "samplingFrequency": { "value": 512, "unit": "Hz" },
///                      "numberOfVoltageMeasurements": 15360,
///                      "voltageMeasurements": { "timeSinceSampleStart": [0, 0.001953125, …],
///                                               "microvolts": [12.5, 14, …] },
///                      "metadata": {} } ],
///       "deleted": []
///     },
///     {
///       "type": "workout",
///       "samples": [ { "uuid": "…", "type": "workout", "kind": "workout", "start": "…", "end": "…",
///                      "source": { … }, "activityType": "running", "duration": 1800,
///                      "totalEnergyBurned": { "value": 250, "unit": "kcal" }, "totalDistance": null,
///                      "totalSwimmingStrokeCount": null, "totalFlightsClimbed": null,
///                      "events": [ { "type": "pause", "start": "…", "end": "…", "metadata": {} } ],
///                      "activities": [ { "uuid": "…", "activityType": "running", "start": "…", "end": "…",
///                                        "events": [], "statistics": [], "metadata": {} } ],
///                      "statistics": [ { "type": "heartRate", "start": "…", "end": "…", "sum": null,
///                                        "average": { "value": 140, "unit": "count/min" },
///                                        "minimum": { … }, "maximum": { … } } ],
///                      "routes": [ { "locations": { "timestamp": ["…", …], "latitude": [52.52, …],
///                                                   "longitude": [13.405, …], "altitude": […], "speed": […],
///                                                   "course": […], "horizontalAccuracy": […],
///                                                   "verticalAccuracy": […] } } ],
///                      "metadata": {} } ],
///       "deleted": []
///     },
///     {
///       "type": "heartbeatSeries",
///       "samples": [ { "uuid": "…", "type": "heartbeatSeries", "kind": "heartbeatSeries",
///                      "start": "…", "end": "…", "source": { … }, "count": 64, "metadata": {} } ],
///       "deleted": []
///     }
///   ]
/// }
/// ```
///
/// A heartbeat series is sent with its beat `count` and, as columns, its beats (``SyncSampleSeries``).
///
/// Metadata values are typed: `{"string": "…"}`, `{"number": 1}`, `{"date": "2026-…+00:00"}`,
/// `{"quantity": {"value": 5, "unit": "mg/dL"}}`. Numbers must be finite (a NaN or infinity throws
/// ``SyncSerializationError/nonFiniteNumber(field:)``).
///
/// - Note: The sink is called synchronously on the caller's thread; the chunk it receives is only valid
///   during the call. The writer is not `Sendable`: use it from one thread, and write through one copy of it
///   (copies share the buffer, as they share the sink).
public struct SyncBatchWriter {
    /// The chunk size used unless another is given: 16 KiB.
    public static let defaultChunkSize = 16_384

    private enum State {
        case headerPending
        case betweenSections(written: Int)
        case samples(HealthObjectType, written: Int)
        case deleted(HealthObjectType, written: Int)
        case finished
    }

    private var emitter: JSONEmitter
    private var state = State.headerPending
    private let header: SyncBatchHeader
    private let timeZone: TimeZone
    /// The time zone's offset when it never changes (UTC, `TimeZone(secondsFromGMT:)`), so that dates are
    /// formatted without asking the time zone each time.
    private let fixedOffset: Int?
    /// The units met so far and their `unitString`s, most recent first (a batch uses a handful).
    private var unitStrings: [(unit: HealthUnit, text: String)] = []
    private var sectionsWritten = 0

    /// Creates a writer that sends the batch to `sink` in chunks of at most `chunkSize` bytes.
    ///
    /// - Parameters:
    ///   - header: The batch ID, device and creation date.
    ///   - chunkSize: The most bytes the writer buffers before calling the sink (at least 64).
    ///   - timeZone: The offset timestamps are written in; UTC (`+00:00`) by default.
    ///   - sink: Receives each chunk; an error it throws ends the write and reaches the caller unchanged.
    public init(
        header: SyncBatchHeader, chunkSize: Int = SyncBatchWriter.defaultChunkSize, timeZone: TimeZone = .gmt,
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.header = header
        self.timeZone = timeZone
        let offset = timeZone.secondsFromGMT()
        self.fixedOffset = TimeZone(secondsFromGMT: offset) == timeZone ? offset : nil
        self.emitter = JSONEmitter(chunkSize: chunkSize, sink: sink)
    }

    /// The number of bytes written so far (handed to the sink or still buffered).
    public var byteCount: Int64 { emitter.byteCount }

    /// Opens the section for `type`, closing the previous one.
    ///
    /// - Parameter type: The section's type; every sample written next must have it.
    /// - Throws: ``SyncSerializationError/misuse(_:)`` after ``finish()``, or the sink's error.
    public mutating func beginSection(_ type: HealthObjectType) throws {
        let written: Int
        switch state {
        case .headerPending:
            try writeHeader()
            written = 0
        case .betweenSections(let count):
            written = count
        case .samples, .deleted:
            try endSection()
            guard case .betweenSections(let count) = state else { return }
            written = count
        case .finished:
            throw SyncSerializationError.misuse("beginSection after finish")
        }
        if written > 0 { try emitter.byte(UInt8(ascii: ",")) }
        try emitter.raw("{\"type\":")
        try emitter.string(type.identifier)
        try emitter.raw(",\"samples\":[")
        state = .samples(type, written: 0)
    }

    /// Writes one sample into the open section, with its series when it has one.
    ///
    /// - Parameters:
    ///   - sample: A sample of the section's type.
    ///   - series: An ECG's voltage measurements or a workout's routes, as the store reads them; `nil` writes
    ///     `null` in their field: not sent with this sample (``SyncSampleSeries``).
    /// - Throws: ``SyncSerializationError`` when no section is open, deletions were already written, the type
    ///   differs, the series is not the sample's kind or a value is not finite; or the sink's error.
    public mutating func writeSample(_ sample: HealthSample, series: SyncSampleSeries? = nil) throws {
        guard case .samples(let type, let written) = state else {
            throw SyncSerializationError.misuse("writeSample needs an open section with no deletions written yet")
        }
        guard sample.type == type else {
            throw SyncSerializationError.sectionTypeMismatch(
                section: type.identifier, sample: sample.type.identifier)
        }
        switch (sample, series) {
        case (_, nil), (.electrocardiogram, .voltageMeasurements?), (.workout, .routes?),
            (.heartbeatSeries, .heartbeats?):
            break
        case (_, let series?):
            throw SyncSerializationError.misuse("a \(type.identifier) sample carries no \(series.field)")
        }
        if written > 0 { try emitter.byte(UInt8(ascii: ",")) }
        try emitSample(sample, series: series)
        state = .samples(type, written: written + 1)
    }

    /// Writes one deletion into the open section (after its samples).
    ///
    /// - Parameter deleted: The deleted object: its UUID and kept metadata.
    /// - Throws: ``SyncSerializationError/misuse(_:)`` when no section is open, or the sink's error.
    public mutating func writeDeleted(_ deleted: HealthDeletedObject) throws {
        let type: HealthObjectType
        let written: Int
        switch state {
        case .samples(let sectionType, _):
            try emitter.raw("],\"deleted\":[")
            (type, written) = (sectionType, 0)
        case .deleted(let sectionType, let count):
            (type, written) = (sectionType, count)
        case .headerPending, .betweenSections, .finished:
            throw SyncSerializationError.misuse("writeDeleted needs an open section")
        }
        if written > 0 { try emitter.byte(UInt8(ascii: ",")) }
        try emitter.raw("{\"uuid\":")
        try emitter.uuid(deleted.uuid)
        try emitter.raw(",\"metadata\":")
        try emitMetadata(deleted.metadata, field: "deleted[].metadata")
        try emitter.byte(UInt8(ascii: "}"))
        state = .deleted(type, written: written + 1)
    }

    /// Writes a whole section: `changes`' samples, each with its series from `series`, then its deletions.
    ///
    /// - Parameters:
    ///   - type: The section's type.
    ///   - changes: What changed since the type's anchor.
    ///   - series: The series of the samples that have one, by sample UUID; a sample missing here is written
    ///     with `null` for its series.
    /// - Throws: As ``writeSample(_:series:)`` and ``writeDeleted(_:)``.
    public mutating func writeSection(
        _ type: HealthObjectType, changes: HealthAnchoredChanges, series: [UUID: SyncSampleSeries] = [:]
    ) throws {
        try beginSection(type)
        for sample in changes.samples { try writeSample(sample, series: series[sample.uuid]) }
        for deleted in changes.deletedObjects { try writeDeleted(deleted) }
        try endSection()
    }

    /// Closes the open section (``beginSection(_:)`` and ``finish()`` do this too).
    ///
    /// - Throws: ``SyncSerializationError/misuse(_:)`` when no section is open, or the sink's error.
    public mutating func endSection() throws {
        switch state {
        case .samples:
            try emitter.raw("],\"deleted\":[]}")
        case .deleted:
            try emitter.raw("]}")
        case .headerPending, .betweenSections, .finished:
            throw SyncSerializationError.misuse("endSection needs an open section")
        }
        sectionsWritten += 1
        state = .betweenSections(written: sectionsWritten)
    }

    /// Closes the document, hands the last chunk to the sink and returns the total length in bytes.
    ///
    /// - Returns: The exact number of bytes the sink received.
    /// - Throws: ``SyncSerializationError/misuse(_:)`` when called twice, or the sink's error.
    @discardableResult
    public mutating func finish() throws -> Int64 {
        switch state {
        case .headerPending: try writeHeader()
        case .samples, .deleted: try endSection()
        case .betweenSections: break
        case .finished: throw SyncSerializationError.misuse("finish called twice")
        }
        try emitter.raw("]}")
        try emitter.flush()
        state = .finished
        return emitter.byteCount
    }

    // MARK: - Emitting

    private mutating func writeHeader() throws {
        try emitter.raw("{\"schemaVersion\":")
        try emitter.integer(header.schemaVersion)
        try emitter.raw(",\"batchID\":")
        try emitter.uuid(header.batchID)
        try emitter.raw(",\"deviceID\":")
        try emitter.string(header.deviceID)
        try emitter.raw(",\"createdAt\":")
        try emitDate(header.createdAt, field: "createdAt")
        try emitter.raw(",\"sections\":[")
        state = .betweenSections(written: 0)
    }

    private mutating func emitDate(_ date: Date, field: @autoclosure () -> String) throws {
        guard date.timeIntervalSince1970.isFinite,
            try emitter.timestamp(date, offset: fixedOffset ?? timeZone.secondsFromGMT(for: date))
        else { throw SyncSerializationError.invalidDate(field: field()) }
    }

    /// The unit's `unitString` (rendered once per unit and writer: rendering sorts and joins its factors).
    private mutating func unitString(_ unit: HealthUnit) -> String {
        if let index = unitStrings.firstIndex(where: { $0.unit == unit }) { return unitStrings[index].text }
        let text = unit.unitString
        unitStrings.append((unit, text))
        return text
    }

    private mutating func emitCommon(
        uuid: UUID, type: HealthObjectType, kind: StaticString, start: Date, end: Date, source: HealthSource
    ) throws {
        try emitter.raw("{\"uuid\":")
        try emitter.uuid(uuid)
        try emitter.raw(",\"type\":")
        try emitter.string(type.identifier)
        try emitter.raw(",\"kind\":\"")
        try emitter.raw(kind)
        try emitter.raw("\",\"start\":")
        try emitDate(start, field: "samples[].start")
        try emitter.raw(",\"end\":")
        try emitDate(end, field: "samples[].end")
        try emitter.raw(",\"source\":{\"bundleIdentifier\":")
        try emitter.string(source.bundleIdentifier)
        try emitter.raw(",\"name\":")
        try emitter.string(source.name)
        try emitter.byte(UInt8(ascii: "}"))
    }

    private mutating func emitQuantityFields(_ quantity: HealthQuantity, field: @autoclosure () -> String) throws {
        try emitter.raw("\"value\":")
        try emitter.number(quantity.value, field: field() + ".value")
        try emitter.raw(",\"unit\":")
        try emitter.string(unitString(quantity.unit))
    }

    private mutating func emitOptionalQuantity(_ quantity: HealthQuantity?, field: @autoclosure () -> String) throws {
        guard let quantity else { return try emitter.raw("null") }
        try emitter.byte(UInt8(ascii: "{"))
        try emitQuantityFields(quantity, field: field())
        try emitter.byte(UInt8(ascii: "}"))
    }

    private mutating func emitQuantitySample(_ sample: HealthQuantitySample) throws {
        try emitCommon(
            uuid: sample.uuid, type: sample.type, kind: "quantity", start: sample.startDate, end: sample.endDate,
            source: sample.source)
        try emitter.byte(UInt8(ascii: ","))
        try emitQuantityFields(sample.quantity, field: "samples[]")
        try emitter.raw(",\"metadata\":")
        try emitMetadata(sample.metadata, field: "samples[].metadata")
        try emitter.byte(UInt8(ascii: "}"))
    }

    private mutating func emitSample(_ sample: HealthSample, series: SyncSampleSeries?) throws {
        switch sample {
        case .quantity(let quantity):
            return try emitQuantitySample(quantity)
        case .category(let category):
            try emitCommon(
                uuid: category.uuid, type: category.type, kind: "category", start: category.startDate,
                end: category.endDate, source: category.source)
            try emitter.raw(",\"value\":")
            try emitter.integer(category.value)
        case .correlation(let correlation):
            try emitCommon(
                uuid: correlation.uuid, type: correlation.type, kind: "correlation", start: correlation.startDate,
                end: correlation.endDate, source: correlation.source)
            try emitter.raw(",\"members\":[")
            let members = correlation.objects.sorted {
                ($0.type.identifier, $0.uuid.uuidString) < ($1.type.identifier, $1.uuid.uuidString)
            }
            for (index, member) in members.enumerated() {
                if index > 0 { try emitter.byte(UInt8(ascii: ",")) }
                try emitQuantitySample(member)
            }
            try emitter.byte(UInt8(ascii: "]"))
        case .electrocardiogram(let ecg):
            try emitCommon(
                uuid: ecg.uuid, type: ecg.type, kind: "electrocardiogram", start: ecg.startDate, end: ecg.endDate,
                source: ecg.source)
            try emitter.raw(",\"classification\":\"")
            try emitter.raw(Self.name(of: ecg.classification))
            try emitter.raw("\",\"symptomsStatus\":\"")
            try emitter.raw(Self.name(of: ecg.symptomsStatus))
            try emitter.raw("\",\"averageHeartRate\":")
            try emitOptionalQuantity(ecg.averageHeartRate, field: "samples[].averageHeartRate")
            try emitter.raw(",\"samplingFrequency\":")
            try emitOptionalQuantity(ecg.samplingFrequency, field: "samples[].samplingFrequency")
            try emitter.raw(",\"numberOfVoltageMeasurements\":")
            try emitter.integer(ecg.numberOfVoltageMeasurements)
            try emitter.raw(",\"voltageMeasurements\":")
            if case .voltageMeasurements(let measurements) = series {
                try emitVoltageMeasurements(measurements)
            } else {
                try emitter.raw("null")
            }
        case .workout(let workout):
            try emitWorkoutFields(workout)
            try emitter.raw(",\"routes\":")
            if case .routes(let routes) = series { try emitRoutes(routes) } else { try emitter.raw("null") }
        case .heartbeatSeries(let heartbeatSeries):
            try emitCommon(
                uuid: heartbeatSeries.uuid, type: heartbeatSeries.type, kind: "heartbeatSeries",
                start: heartbeatSeries.startDate, end: heartbeatSeries.endDate, source: heartbeatSeries.source)
            try emitter.raw(",\"count\":")
            try emitter.integer(heartbeatSeries.count)
            try emitter.raw(",\"heartbeats\":")
            if case .heartbeats(let beats) = series { try emitHeartbeats(beats) } else { try emitter.raw("null") }
        }
        try emitter.raw(",\"metadata\":")
        try emitMetadata(sample.metadata, field: "samples[].metadata")
        try emitter.byte(UInt8(ascii: "}"))
    }

    /// A workout's own fields, after the common ones and before its metadata.
    private mutating func emitWorkoutFields(_ workout: HealthWorkout) throws {
        try emitCommon(
            uuid: workout.uuid, type: workout.type, kind: "workout", start: workout.startDate, end: workout.endDate,
            source: workout.source)
        try emitter.raw(",\"activityType\":")
        try emitter.string(workout.activityType.name)
        try emitter.raw(",\"duration\":")
        try emitter.number(workout.duration, field: "samples[].duration")
        let totals: [(StaticString, String, HealthQuantity?)] = [
            (",\"totalEnergyBurned\":", "totalEnergyBurned", workout.totalEnergyBurned),
            (",\"totalDistance\":", "totalDistance", workout.totalDistance),
            (",\"totalSwimmingStrokeCount\":", "totalSwimmingStrokeCount", workout.totalSwimmingStrokeCount),
            (",\"totalFlightsClimbed\":", "totalFlightsClimbed", workout.totalFlightsClimbed),
        ]
        for (key, name, quantity) in totals {
            try emitter.raw(key)
            try emitOptionalQuantity(quantity, field: "samples[].\(name)")
        }
        try emitter.raw(",\"events\":")
        try emitWorkoutEvents(workout.events, field: "samples[].events")
        try emitter.raw(",\"activities\":[")
        for (index, activity) in workout.activities.enumerated() {
            if index > 0 { try emitter.byte(UInt8(ascii: ",")) }
            try emitter.raw("{\"uuid\":")
            try emitter.uuid(activity.uuid)
            try emitter.raw(",\"activityType\":")
            try emitter.string(activity.activityType.name)
            try emitter.raw(",\"start\":")
            try emitDate(activity.startDate, field: "samples[].activities[].start")
            try emitter.raw(",\"end\":")
            try emitDate(activity.endDate, field: "samples[].activities[].end")
            try emitter.raw(",\"events\":")
            try emitWorkoutEvents(activity.events, field: "samples[].activities[].events")
            try emitter.raw(",\"statistics\":")
            try emitWorkoutStatistics(activity.statistics, field: "samples[].activities[].statistics")
            try emitter.raw(",\"metadata\":")
            try emitMetadata(activity.metadata, field: "samples[].activities[].metadata")
            try emitter.byte(UInt8(ascii: "}"))
        }
        try emitter.raw("],\"statistics\":")
        try emitWorkoutStatistics(workout.statistics, field: "samples[].statistics")
    }

    /// `{"timeSinceSampleStart": [seconds…], "microvolts": [µV…]}`: two columns of equal length.
    private mutating func emitVoltageMeasurements(_ measurements: [ElectrocardiogramVoltageMeasurement]) throws {
        let field = "samples[].voltageMeasurements"
        try emitter.raw("{\"timeSinceSampleStart\":")
        try emitColumn(measurements) { try $0.emitter.number($1.timeSinceSampleStart, field: field) }
        try emitter.raw(",\"microvolts\":")
        try emitColumn(measurements) { try $0.emitter.number($1.microvolts, field: field) }
        try emitter.byte(UInt8(ascii: "}"))
    }

    /// `{"timeSinceSeriesStart": [seconds…], "precededByGap": [booleans…]}`: two columns of equal length.
    private mutating func emitHeartbeats(_ beats: [HealthHeartbeat]) throws {
        try emitter.raw("{\"timeSinceSeriesStart\":")
        try emitColumn(beats) { try $0.emitter.number($1.timeSinceSeriesStart, field: "samples[].heartbeats") }
        try emitter.raw(",\"precededByGap\":")
        try emitColumn(beats) { try $0.emitter.raw($1.precededByGap ? "true" : "false") }
        try emitter.byte(UInt8(ascii: "}"))
    }

    /// `[{"locations": {"timestamp": [timestamps…], "latitude": [degrees…], …}}]`: one object per route, its
    /// locations as columns of equal length in ``HealthWorkoutRoute/Location``'s field order.
    private mutating func emitRoutes(_ routes: [HealthWorkoutRoute]) throws {
        let columns: [(StaticString, KeyPath<HealthWorkoutRoute.Location, Double>)] = [
            (",\"latitude\":", \.latitude), (",\"longitude\":", \.longitude), (",\"altitude\":", \.altitude),
            (",\"speed\":", \.speed), (",\"course\":", \.course), (",\"horizontalAccuracy\":", \.horizontalAccuracy),
            (",\"verticalAccuracy\":", \.verticalAccuracy),
        ]
        try emitColumn(routes) { writer, route in
            try writer.emitter.raw("{\"locations\":{\"timestamp\":")
            try writer.emitColumn(route.locations) {
                try $0.emitDate($1.timestamp, field: "samples[].routes[].locations.timestamp")
            }
            for (key, field) in columns {
                try writer.emitter.raw(key)
                try writer.emitColumn(route.locations) {
                    try $0.emitter.number($1[keyPath: field], field: "samples[].routes[].locations")
                }
            }
            try writer.emitter.raw("}}")
        }
    }

    /// `[…]`: each of `elements` written by `element`, separated by commas.
    private mutating func emitColumn<Element>(
        _ elements: [Element], _ element: (inout SyncBatchWriter, Element) throws -> Void
    ) throws {
        try emitter.byte(UInt8(ascii: "["))
        for (index, value) in elements.enumerated() {
            if index > 0 { try emitter.byte(UInt8(ascii: ",")) }
            try element(&self, value)
        }
        try emitter.byte(UInt8(ascii: "]"))
    }

    private mutating func emitWorkoutEvents(_ events: [HealthWorkout.Event], field: String) throws {
        try emitter.byte(UInt8(ascii: "["))
        for (index, event) in events.enumerated() {
            if index > 0 { try emitter.byte(UInt8(ascii: ",")) }
            try emitter.raw("{\"type\":")
            try emitter.string(String(describing: event.type))
            try emitter.raw(",\"start\":")
            try emitDate(event.startDate, field: field + "[].start")
            try emitter.raw(",\"end\":")
            try emitDate(event.endDate, field: field + "[].end")
            try emitter.raw(",\"metadata\":")
            try emitMetadata(event.metadata, field: field + "[].metadata")
            try emitter.byte(UInt8(ascii: "}"))
        }
        try emitter.byte(UInt8(ascii: "]"))
    }

    private mutating func emitWorkoutStatistics(_ statistics: [HealthWorkout.Statistics], field: String) throws {
        try emitter.byte(UInt8(ascii: "["))
        for (index, entry) in statistics.enumerated() {
            if index > 0 { try emitter.byte(UInt8(ascii: ",")) }
            try emitter.raw("{\"type\":")
            try emitter.string(entry.type.identifier)
            try emitter.raw(",\"start\":")
            try emitDate(entry.startDate, field: field + "[].start")
            try emitter.raw(",\"end\":")
            try emitDate(entry.endDate, field: field + "[].end")
            let figures = [
                ("sum", entry.sum), ("average", entry.average), ("minimum", entry.minimum), ("maximum", entry.maximum),
            ]
            for (name, quantity) in figures {
                try emitter.raw(",")
                try emitter.string(name)
                try emitter.raw(":")
                try emitOptionalQuantity(quantity, field: field + "[].\(name)")
            }
            try emitter.byte(UInt8(ascii: "}"))
        }
        try emitter.byte(UInt8(ascii: "]"))
    }

    private mutating func emitMetadata(_ metadata: [MetadataKey: MetadataValue], field: String) throws {
        if metadata.isEmpty { return try emitter.raw("{}") }
        try emitter.byte(UInt8(ascii: "{"))
        var isFirst = true
        try metadata.forEachInKeyOrder { key, value in
            if !isFirst { try emitter.byte(UInt8(ascii: ",")) }
            isFirst = false
            try emitter.string(key.rawValue)
            switch value {
            case .string(let string):
                try emitter.raw(":{\"string\":")
                try emitter.string(string)
            case .number(let number):
                try emitter.raw(":{\"number\":")
                try emitter.number(number, field: "\(field).\(key.rawValue)")
            case .date(let date):
                try emitter.raw(":{\"date\":")
                try emitDate(date, field: "\(field).\(key.rawValue)")
            case .quantity(let quantity):
                try emitter.raw(":{\"quantity\":{")
                try emitQuantityFields(quantity, field: "\(field).\(key.rawValue)")
                try emitter.byte(UInt8(ascii: "}"))
            }
            try emitter.byte(UInt8(ascii: "}"))
        }
        try emitter.byte(UInt8(ascii: "}"))
    }

    private static func name(of classification: HealthElectrocardiogram.Classification) -> StaticString {
        switch classification {
        case .notSet: "notSet"
        case .sinusRhythm: "sinusRhythm"
        case .atrialFibrillation: "atrialFibrillation"
        case .inconclusiveLowHeartRate: "inconclusiveLowHeartRate"
        case .inconclusiveHighHeartRate: "inconclusiveHighHeartRate"
        case .inconclusivePoorReading: "inconclusivePoorReading"
        case .inconclusiveOther: "inconclusiveOther"
        case .unrecognized: "unrecognized"
        }
    }

    private static func name(of status: HealthElectrocardiogram.SymptomsStatus) -> StaticString {
        switch status {
        case .notSet: "notSet"
        case .none: "none"
        case .present: "present"
        }
    }
}
