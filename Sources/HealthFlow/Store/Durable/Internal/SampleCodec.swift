import Foundation

/// The binary form of samples in journal and snapshot records (see <doc:DurableStoreFormat> for the whole format).
///
/// ```text
/// sample      = kind:u8 body                  1 quantity, 2 category, 3 correlation, 4 electrocardiogram,
///                                             5 workout, 6 heartbeat series
/// quantity    = uuid:16 type:str start:f64 end:f64 source metadata value:f64 unit:str
/// category    = uuid:16 type:str start:f64 end:f64 source metadata value:zigzag
/// correlation = uuid:16 type:str start:f64 end:f64 source metadata count:varint quantity*
/// ecg         = uuid:16 start:f64 end:f64 source metadata classification:zigzag symptoms:zigzag
///               present:u8 [bpm:f64 unit:str] [hz:f64 unit:str] voltageCount:varint
/// workout     = uuid:16 start:f64 end:f64 source metadata activityType:str duration:f64
///               present:u8 [energy:qty] [distance:qty] [strokes:qty] [flights:qty] events activity* statistics
///               (activity* is count:varint then each activity)
/// heartbeats  = uuid:16 start:f64 end:f64 source metadata count:varint
/// events      = count:varint (type:zigzag start:f64 end:f64 metadata)*
/// activity    = uuid:16 activityType:str start:f64 end:f64 metadata events statistics
/// statistics  = count:varint (type:str start:f64 end:f64 present:u8 [sum:qty] [avg:qty] [min:qty] [max:qty])*
/// qty         = value:f64 unit:str                present bit i set when the i-th optional follows
/// source      = bundleIdentifier:str name:str
/// metadata    = count:varint (key:str value)*         keys in ascending order
/// value       = 1 string:str | 2 number:f64 | 3 date:f64 | 4 value:f64 unit:str
/// ```
///
/// Dates are `timeIntervalSinceReferenceDate` bit patterns and units their printed strings, so a decoded
/// sample equals the encoded one. Decoding runs the samples' validating initializers: a payload that
/// decodes is a valid sample or an error, never a wrong one.
enum SampleCodec {
    static func encode(_ sample: HealthSample, into writer: inout BinaryWriter) {
        switch sample {
        case .quantity(let sample):
            writer.byte(1)
            encodeQuantitySample(sample, into: &writer)
        case .category(let sample):
            writer.byte(2)
            encodeCommon(
                sample.uuid, sample.type, sample.startDate, sample.endDate, sample.source, sample.metadata,
                into: &writer)
            writer.signed(sample.value)
        case .correlation(let sample):
            writer.byte(3)
            encodeCommon(
                sample.uuid, sample.type, sample.startDate, sample.endDate, sample.source, sample.metadata,
                into: &writer)
            let members = sample.objects.sorted {
                ($0.type.identifier, $0.uuid.uuidString) < ($1.type.identifier, $1.uuid.uuidString)
            }
            writer.count(members.count)
            for member in members { encodeQuantitySample(member, into: &writer) }
        case .electrocardiogram(let sample):
            writer.byte(4)
            encodeCommon(
                sample.uuid, nil, sample.startDate, sample.endDate, sample.source, sample.metadata, into: &writer)
            writer.signed(sample.classification.rawValue)
            writer.signed(sample.symptomsStatus.rawValue)
            writer.byte((sample.averageHeartRate == nil ? 0 : 1) | (sample.samplingFrequency == nil ? 0 : 2))
            if let rate = sample.averageHeartRate { encodeQuantity(rate, into: &writer) }
            if let frequency = sample.samplingFrequency { encodeQuantity(frequency, into: &writer) }
            writer.count(sample.numberOfVoltageMeasurements)
        case .heartbeatSeries(let sample):
            writer.byte(6)
            encodeCommon(
                sample.uuid, nil, sample.startDate, sample.endDate, sample.source, sample.metadata, into: &writer)
            writer.count(sample.count)
        case .workout(let sample):
            writer.byte(5)
            encodeCommon(
                sample.uuid, nil, sample.startDate, sample.endDate, sample.source, sample.metadata, into: &writer)
            writer.string(sample.activityType.name)
            writer.double(sample.duration)
            encodeOptionalQuantities(
                [
                    sample.totalEnergyBurned, sample.totalDistance, sample.totalSwimmingStrokeCount,
                    sample.totalFlightsClimbed,
                ], into: &writer)
            encodeEvents(sample.events, into: &writer)
            writer.count(sample.activities.count)
            for activity in sample.activities {
                writer.uuid(activity.uuid)
                writer.string(activity.activityType.name)
                writer.double(activity.startDate.timeIntervalSinceReferenceDate)
                writer.double(activity.endDate.timeIntervalSinceReferenceDate)
                encodeMetadata(activity.metadata, into: &writer)
                encodeEvents(activity.events, into: &writer)
                encodeStatistics(activity.statistics, into: &writer)
            }
            encodeStatistics(sample.statistics, into: &writer)
        }
    }

    /// A presence byte (bit i for the i-th quantity) followed by the quantities present.
    private static func encodeOptionalQuantities(_ quantities: [HealthQuantity?], into writer: inout BinaryWriter) {
        var present: UInt8 = 0
        for (index, quantity) in quantities.enumerated() where quantity != nil { present |= 1 << index }
        writer.byte(present)
        for quantity in quantities { if let quantity { encodeQuantity(quantity, into: &writer) } }
    }

    private static func encodeEvents(_ events: [HealthWorkout.Event], into writer: inout BinaryWriter) {
        writer.count(events.count)
        for event in events {
            writer.signed(event.type.rawValue)
            writer.double(event.startDate.timeIntervalSinceReferenceDate)
            writer.double(event.endDate.timeIntervalSinceReferenceDate)
            encodeMetadata(event.metadata, into: &writer)
        }
    }

    private static func encodeStatistics(_ statistics: [HealthWorkout.Statistics], into writer: inout BinaryWriter) {
        writer.count(statistics.count)
        for entry in statistics {
            writer.type(entry.type)
            writer.double(entry.startDate.timeIntervalSinceReferenceDate)
            writer.double(entry.endDate.timeIntervalSinceReferenceDate)
            encodeOptionalQuantities([entry.sum, entry.average, entry.minimum, entry.maximum], into: &writer)
        }
    }

    private static func encodeQuantitySample(_ sample: HealthQuantitySample, into writer: inout BinaryWriter) {
        encodeCommon(
            sample.uuid, sample.type, sample.startDate, sample.endDate, sample.source, sample.metadata, into: &writer)
        encodeQuantity(sample.quantity, into: &writer)
    }

    /// The fields every sample writes first; `type` is `nil` for a kind whose type is fixed (ECG, workout,
    /// heartbeat series), which writes none.
    private static func encodeCommon(
        _ uuid: UUID, _ type: HealthObjectType?, _ start: Date, _ end: Date, _ source: HealthSource,
        _ metadata: [MetadataKey: MetadataValue], into writer: inout BinaryWriter
    ) {
        writer.uuid(uuid)
        if let type { writer.type(type) }
        writer.double(start.timeIntervalSinceReferenceDate)
        writer.double(end.timeIntervalSinceReferenceDate)
        writer.source(source)
        encodeMetadata(metadata, into: &writer)
    }

    private static func encodeQuantity(_ quantity: HealthQuantity, into writer: inout BinaryWriter) {
        writer.double(quantity.value)
        writer.unit(quantity.unit)
    }

    private static func encodeMetadata(_ metadata: [MetadataKey: MetadataValue], into writer: inout BinaryWriter) {
        writer.count(metadata.count)
        guard !metadata.isEmpty else { return }
        metadata.forEachInKeyOrder { key, value in
            writer.string(key.rawValue)
            switch value {
            case .string(let string):
                writer.byte(1)
                writer.string(string)
            case .number(let number):
                writer.byte(2)
                writer.double(number)
            case .date(let date):
                writer.byte(3)
                writer.double(date.timeIntervalSinceReferenceDate)
            case .quantity(let quantity):
                writer.byte(4)
                encodeQuantity(quantity, into: &writer)
            }
        }
    }
}

/// Decodes samples, remembering the types and units met so far (a store's files name few of them, so each
/// unit string is parsed once per load). The last type, unit, unit fit and source met are kept beside the
/// tables: a file's samples come in runs of one type from one source, and a run is decoded without hashing.
struct SampleDecoder {
    /// Whether a quantity sample of a type and unit pair already met in a valid sample is kept without its rules
    /// checked again: for snapshots, whose samples were valid when written and whose records are checksummed
    /// (damage is caught by the checksum before a sample is decoded). The first sample of every pair, and every
    /// other kind of sample, is still checked.
    let trustsKnownQuantitySamples: Bool
    private var types: [String: HealthObjectType] = [:]
    private var units = ParsedUnits()
    /// Type and unit pairs already seen in a valid quantity sample, with whether the type allows negative
    /// values: later samples of the pair skip the unit's dimension check.
    private var unitFits: [UnitPair: Bool] = [:]
    private var lastType: HealthObjectType?
    private var lastUnit: (text: String, unit: HealthUnit)?
    private var lastFit: (pair: UnitPair, allowsNegative: Bool)?
    /// The sources met last, with the strings they were read from (a payload repeats a string as a reference to
    /// its first occurrence, so within a payload these compare by identity).
    private var recentSources: [RecentSource] = []

    private struct RecentSource {
        var bundleIdentifier: String
        var name: String
        let source: HealthSource
    }

    init(trustsKnownQuantitySamples: Bool = false) {
        self.trustsKnownQuantitySamples = trustsKnownQuantitySamples
    }

    private struct UnitPair: Hashable {
        let type: String
        let unit: String
    }

    typealias Failure = BinaryReader.Failure

    mutating func sample(from reader: inout BinaryReader) throws(Failure) -> HealthSample {
        switch try reader.byte() {
        case 1:
            return .quantity(try quantitySample(from: &reader))
        case 2:
            let common = try self.common(from: &reader)
            let value = try reader.signed()
            return try validated { () throws(ValidationError) in
                .category(
                    try HealthCategorySample(
                        type: common.type, value: value, start: common.start, end: common.end, source: common.source,
                        metadata: common.metadata, uuid: common.uuid))
            }
        case 3:
            let common = try self.common(from: &reader)
            let count = try reader.count(minimumSize: 40)
            var members = Set<HealthQuantitySample>(minimumCapacity: count)
            for _ in 0..<count { members.insert(try quantitySample(from: &reader)) }
            guard members.count == count else { throw Failure(reason: "a correlation repeats a member") }
            return try validated { () throws(ValidationError) in
                .correlation(
                    try HealthCorrelation(
                        type: common.type, start: common.start, end: common.end, objects: members,
                        source: common.source, metadata: common.metadata, uuid: common.uuid))
            }
        case 4:
            let common = try self.common(from: &reader, fixedType: .electrocardiogram)
            guard let classification = HealthElectrocardiogram.Classification(rawValue: try reader.signed()),
                let symptoms = HealthElectrocardiogram.SymptomsStatus(rawValue: try reader.signed())
            else { throw Failure(reason: "an electrocardiogram has an unknown classification or symptoms status") }
            let present = try reader.byte()
            guard present & ~3 == 0 else { throw Failure(reason: "an electrocardiogram has unknown fields") }
            let rate = present & 1 != 0 ? try quantity(from: &reader) : nil
            let frequency = present & 2 != 0 ? try quantity(from: &reader) : nil
            let count = try reader.integer()
            return try validated { () throws(ValidationError) in
                .electrocardiogram(
                    try HealthElectrocardiogram(
                        start: common.start, end: common.end, classification: classification,
                        symptomsStatus: symptoms, averageHeartRate: rate, samplingFrequency: frequency,
                        numberOfVoltageMeasurements: count, source: common.source, metadata: common.metadata,
                        uuid: common.uuid))
            }
        case 5:
            return .workout(try workout(from: &reader))
        case 6:
            let common = try self.common(from: &reader, fixedType: .heartbeatSeries)
            let count = try reader.integer()
            return try validated { () throws(ValidationError) in
                .heartbeatSeries(
                    try HealthHeartbeatSeries(
                        start: common.start, end: common.end, count: count, source: common.source,
                        metadata: common.metadata, uuid: common.uuid))
            }
        default:
            throw Failure(reason: "unknown sample kind")
        }
    }

    private mutating func workout(from reader: inout BinaryReader) throws(Failure) -> HealthWorkout {
        let common = try self.common(from: &reader, fixedType: .workout)
        let activityType = HealthWorkout.ActivityType(name: try reader.string())
        let duration = try reader.double()
        let totals = try optionalQuantities(4, from: &reader)
        let events = try self.events(from: &reader)
        let activityCount = try reader.count(minimumSize: 36)
        var activities: [HealthWorkout.Activity] = []
        activities.reserveCapacity(activityCount)
        for _ in 0..<activityCount {
            let activityUUID = try reader.uuid()
            let activityType = HealthWorkout.ActivityType(name: try reader.string())
            let activityStart = Date(timeIntervalSinceReferenceDate: try reader.double())
            let activityEnd = Date(timeIntervalSinceReferenceDate: try reader.double())
            let activityMetadata = try self.metadata(from: &reader)
            let activityEvents = try self.events(from: &reader)
            activities.append(
                HealthWorkout.Activity(
                    activityType: activityType, start: activityStart, end: activityEnd, events: activityEvents,
                    statistics: try statistics(from: &reader), metadata: activityMetadata, uuid: activityUUID))
        }
        let statistics = try self.statistics(from: &reader)
        return try validated { () throws(ValidationError) in
            try HealthWorkout(
                activityType: activityType, start: common.start, end: common.end, duration: duration,
                totalEnergyBurned: totals[0], totalDistance: totals[1], totalSwimmingStrokeCount: totals[2],
                totalFlightsClimbed: totals[3], events: events, activities: activities, statistics: statistics,
                source: common.source, metadata: common.metadata, uuid: common.uuid)
        }
    }

    /// A presence byte and the quantities it marks present, `count` slots in all.
    private mutating func optionalQuantities(_ count: Int, from reader: inout BinaryReader) throws(Failure)
        -> [HealthQuantity?]
    {
        let present = try reader.byte()
        guard present >> count == 0 else { throw Failure(reason: "a workout has unknown fields") }
        var quantities: [HealthQuantity?] = []
        for index in 0..<count {
            quantities.append(present & (1 << index) != 0 ? try quantity(from: &reader) : nil)
        }
        return quantities
    }

    private mutating func events(from reader: inout BinaryReader) throws(Failure) -> [HealthWorkout.Event] {
        let count = try reader.count(minimumSize: 18)
        var events: [HealthWorkout.Event] = []
        events.reserveCapacity(count)
        for _ in 0..<count {
            guard let type = HealthWorkout.Event.EventType(rawValue: try reader.signed()) else {
                throw Failure(reason: "a workout event has an unknown type")
            }
            let start = Date(timeIntervalSinceReferenceDate: try reader.double())
            let end = Date(timeIntervalSinceReferenceDate: try reader.double())
            events.append(
                HealthWorkout.Event(type: type, start: start, end: end, metadata: try metadata(from: &reader)))
        }
        return events
    }

    private mutating func statistics(from reader: inout BinaryReader) throws(Failure) -> [HealthWorkout.Statistics] {
        let count = try reader.count(minimumSize: 18)
        var statistics: [HealthWorkout.Statistics] = []
        statistics.reserveCapacity(count)
        for _ in 0..<count {
            let type = try self.type(from: &reader)
            let start = Date(timeIntervalSinceReferenceDate: try reader.double())
            let end = Date(timeIntervalSinceReferenceDate: try reader.double())
            let figures = try optionalQuantities(4, from: &reader)
            statistics.append(
                HealthWorkout.Statistics(
                    type: type, start: start, end: end, sum: figures[0], average: figures[1], minimum: figures[2],
                    maximum: figures[3]))
        }
        return statistics
    }

    private struct Common {
        let uuid: UUID
        let type: HealthObjectType
        let start: Date
        let end: Date
        let source: HealthSource
        let metadata: [MetadataKey: MetadataValue]
    }

    /// The fields ``SampleCodec/encodeCommon(_:_:_:_:_:_:into:)`` writes; a kind whose type is fixed passes it
    /// as `fixedType` (none was written).
    private mutating func common(
        from reader: inout BinaryReader, fixedType: HealthObjectType? = nil
    ) throws(Failure) -> Common {
        let uuid = try reader.uuid()
        let type: HealthObjectType
        if let fixedType { type = fixedType } else { type = try self.type(from: &reader) }
        return Common(
            uuid: uuid, type: type, start: Date(timeIntervalSinceReferenceDate: try reader.double()),
            end: Date(timeIntervalSinceReferenceDate: try reader.double()), source: try source(from: &reader),
            metadata: try metadata(from: &reader))
    }

    private mutating func quantitySample(from reader: inout BinaryReader) throws(Failure) -> HealthQuantitySample {
        let common = try self.common(from: &reader)
        let value = try reader.double()
        let unitText = try reader.string()
        let quantity = HealthQuantity(unit: try unit(unitText), doubleValue: value)
        let pair = UnitPair(type: common.type.identifier, unit: unitText)
        let fit: Bool?
        if let lastFit, lastFit.pair.type == pair.type, lastFit.pair.unit == pair.unit {
            fit = lastFit.allowsNegative
        } else {
            fit = unitFits[pair]
        }
        if fit != nil, trustsKnownQuantitySamples {
            return HealthQuantitySample(
                checkedBefore: common.type, quantity: quantity, start: common.start, end: common.end,
                source: common.source, metadata: common.metadata, uuid: common.uuid)
        }
        let sample = try validated { () throws(ValidationError) in
            try HealthQuantitySample(
                type: common.type, quantity: quantity, start: common.start, end: common.end, source: common.source,
                metadata: common.metadata, uuid: common.uuid, knownUnitFit: fit)
        }
        let allowsNegative = fit ?? common.type.allowsNegativeValues
        if fit == nil { unitFits[pair] = allowsNegative }
        lastFit = (pair, allowsNegative)
        return sample
    }

    /// Runs a validating initializer, turning its error into a failure that does not repeat the values.
    private func validated<Value>(_ make: () throws(ValidationError) -> Value) throws(Failure) -> Value {
        do {
            return try make()
        } catch {
            throw Failure(reason: "a sample breaks the sample rules")
        }
    }

    mutating func type(from reader: inout BinaryReader) throws(Failure) -> HealthObjectType {
        let identifier = try reader.string()
        if let lastType, lastType.identifier == identifier { return lastType }
        if let type = types[identifier] {
            lastType = type
            return type
        }
        guard let type = HealthObjectType(identifier: identifier) else {
            throw Failure(reason: "unknown type \"\(identifier)\"")
        }
        types[identifier] = type
        lastType = type
        return type
    }

    private mutating func source(from reader: inout BinaryReader) throws(Failure) -> HealthSource {
        let bundleIdentifier = try reader.string()
        let name = try reader.string()
        // Most recent first, compared by bytes (a name spelled differently from an equal one is another source's
        // bytes); lengths (O(1) for these strings) rule most others out before any comparison.
        let lengths = (bundleIdentifier.utf8.count, name.utf8.count)
        if let recent = recentSources.lastIndex(where: {
            ($0.bundleIdentifier.utf8.count, $0.name.utf8.count) == lengths
                && ExactString($0.bundleIdentifier) == ExactString(bundleIdentifier)
                && ExactString($0.name) == ExactString(name)
        }) {
            // Keep this payload's strings, so the next comparison is by identity.
            recentSources[recent].bundleIdentifier = bundleIdentifier
            recentSources[recent].name = name
            return recentSources[recent].source
        }
        let source = HealthSource(bundleIdentifier: bundleIdentifier, name: name)
        if recentSources.count == 4 { recentSources.removeFirst() }
        recentSources.append(RecentSource(bundleIdentifier: bundleIdentifier, name: name, source: source))
        return source
    }

    private mutating func quantity(from reader: inout BinaryReader) throws(Failure) -> HealthQuantity {
        let value = try reader.double()
        return HealthQuantity(unit: try unit(try reader.string()), doubleValue: value)
    }

    private mutating func unit(_ text: String) throws(Failure) -> HealthUnit {
        if let lastUnit, lastUnit.text == text { return lastUnit.unit }
        let unit: HealthUnit
        do {
            unit = try units.unit(text)
        } catch {
            throw Failure(reason: "unparsable unit \"\(text)\"")
        }
        lastUnit = (text, unit)
        return unit
    }

    private mutating func metadata(from reader: inout BinaryReader) throws(Failure) -> [MetadataKey: MetadataValue] {
        let count = try reader.count(minimumSize: 3)
        guard count > 0 else { return [:] }
        var metadata: [MetadataKey: MetadataValue] = Dictionary(minimumCapacity: count)
        for _ in 0..<count {
            let key = MetadataKey(rawValue: try reader.string())
            let value: MetadataValue
            switch try reader.byte() {
            case 1: value = .string(try reader.string())
            case 2: value = .number(try reader.double())
            case 3: value = .date(Date(timeIntervalSinceReferenceDate: try reader.double()))
            case 4: value = .quantity(try quantity(from: &reader))
            default: throw Failure(reason: "unknown metadata value kind")
            }
            guard metadata.updateValue(value, forKey: key) == nil else {
                throw Failure(reason: "metadata repeats a key")
            }
        }
        return metadata
    }
}
