import Foundation

/// The first record of every journal and snapshot: which generation the file is, which app wrote it, which
/// store it belongs to, and the change sequence the file starts from.
///
/// ```text
/// header = generation:u64 appBundleIdentifier:str storeID:uuid16 startSequence:u64
/// ```
///
/// `storeID` is drawn when the store is created and copied into every later file, so a journal or snapshot of
/// another store is told apart from the store's own. `startSequence` is the store's change sequence when the
/// file was begun: a journal's must equal the sequence the files before it end at, so a journal swapped for an
/// older or newer copy is caught. Files written before these fields existed end after the app's identifier;
/// they read as `nil`.
struct StoreFileHeader: Equatable {
    let generation: UInt64
    let appBundleIdentifier: String
    let storeID: UUID?
    let startSequence: UInt64?

    func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        writer.uint64(generation)
        writer.string(appBundleIdentifier)
        if let storeID, let startSequence {
            writer.uuid(storeID)
            writer.uint64(startSequence)
        }
        return writer.bytes
    }

    init(generation: UInt64, appBundleIdentifier: String, storeID: UUID?, startSequence: UInt64?) {
        self.generation = generation
        self.appBundleIdentifier = appBundleIdentifier
        self.storeID = storeID
        self.startSequence = startSequence
    }

    init(from reader: inout BinaryReader) throws(BinaryReader.Failure) {
        generation = try reader.uint64()
        appBundleIdentifier = try reader.string()
        if reader.isAtEnd {
            storeID = nil
            startSequence = nil
        } else {
            storeID = try reader.uuid()
            startSequence = try reader.uint64()
        }
        try reader.expectEnd()
    }
}

/// Journal records: one ``StoreMutation`` each.
///
/// ```text
/// insert        = count:varint sample*                     (SampleCodec)
/// delete        = count:varint uuid:16*
/// authorization = requestShare:types requestRead:types allowedShare:types allowedRead:types
/// types         = count:varint identifier:str*             (ascending)
/// recording     = sample measurements                     (one ECG; a batch is one record per ECG)
/// measurements  = count:varint (timeSinceSampleStart:f64 microvolts:f64)*
/// workoutRecording = sample routes                        (one workout; a batch is one record per workout)
/// routes        = count:varint (count:varint location*)*
/// location      = timestamp:f64 latitude:f64 longitude:f64 altitude:f64 speed:f64 course:f64
///                 horizontalAccuracy:f64 verticalAccuracy:f64
/// ```
enum MutationCodec {
    /// The records of one change: one, or — for a change whose payload would pass `recordSize` bytes — several,
    /// each closed once its payload reaches `recordSize` (an insert record holds at least one sample, however
    /// large; a delete record at most `recordSize / 16` UUIDs). Replaying them in order, merged, is the change.
    static func encodeRecords(
        _ mutation: StoreMutation, recordSize: Int = RecordFrame.journalRecordSize
    ) -> [(kind: RecordKind, payload: [UInt8])] {
        switch mutation {
        case .insert(let samples):
            var records: [(kind: RecordKind, payload: [UInt8])] = []
            var body = BinaryWriter(capacity: min(recordSize, 128 * samples.count) + 4096)
            var count = 0
            func close() {
                var record = BinaryWriter(capacity: body.count + 10)
                record.count(count)
                records.append((.insert, record.bytes + body.bytes))
                count = 0
            }
            // Indices rather than `for sample in samples`: iterating copies each (large) sample.
            for index in samples.indices {
                SampleCodec.encode(samples[index], into: &body)
                count += 1
                if body.count >= recordSize {
                    close()
                    body = BinaryWriter(capacity: recordSize + 4096)
                }
            }
            if count > 0 || records.isEmpty { close() }
            return records
        case .delete(let uuids):
            let perRecord = max(1, recordSize / 16)
            guard uuids.count > perRecord else { return [encode(mutation)] }
            return stride(from: 0, to: uuids.count, by: perRecord).map { start in
                encode(.delete(Array(uuids[start..<min(start + perRecord, uuids.count)])))
            }
        case .authorization:
            return [encode(mutation)]
        case .insertRecordings(let recordings):
            guard recordings.count > 1 else { return [encode(mutation)] }
            return recordings.map { encode(.insertRecordings([$0])) }
        case .insertWorkoutRecordings(let recordings):
            guard recordings.count > 1 else { return [encode(mutation)] }
            return recordings.map { encode(.insertWorkoutRecordings([$0])) }
        }
    }

    /// The records of `mutation`, framed (``RecordFrame``), as the journal appends them: the bytes
    /// ``encodeRecords(_:recordSize:)`` gives, each framed with ``RecordFrame/append(kind:payload:continues:to:)``,
    /// all but the last flagged as continued. An insert is encoded straight into the framed buffer (its count
    /// written first, and corrected when a record closes before the batch's end), so its bytes are written once.
    /// - Throws: ``FileStoreError/recordTooLarge(bytes:limit:)`` for a record past ``RecordFrame/maximumPayload``.
    static func framedRecords(
        _ mutation: StoreMutation, recordSize: Int = RecordFrame.journalRecordSize
    ) throws(FileStoreError) -> [UInt8] {
        guard case .insert(let samples) = mutation else {
            let parts = encodeRecords(mutation, recordSize: recordSize)
            var writer = BinaryWriter(capacity: parts.reduce(0) { $0 + RecordFrame.headerSize + $1.payload.count })
            for (position, part) in parts.enumerated() {
                try checkSize(part.payload.count)
                let start = writer.beginRecord()
                writer.append(part.payload)
                writer.endRecord(start, kind: part.kind, continues: position < parts.count - 1)
            }
            return writer.takeBytes()
        }
        var writer = BinaryWriter(capacity: min(recordSize, 64 * samples.count) + 4096)
        var index = samples.startIndex
        repeat {
            let start = writer.beginRecord()
            let countOffset = writer.count
            let expected = UInt64(samples.count - index)
            writer.varint(expected)
            let bodyStart = writer.count
            let first = index
            // Indices rather than `for sample in samples`: iterating copies each (large) sample.
            while index < samples.count {
                SampleCodec.encode(samples[index], into: &writer)
                index += 1
                if writer.count - bodyStart >= recordSize { break }
            }
            if UInt64(index - first) != expected {
                writer.replaceVarint(at: countOffset, expected, with: UInt64(index - first))
            }
            try checkSize(writer.payloadCount(ofRecordAt: start))
            writer.endRecord(start, kind: .insert, continues: index < samples.count)
        } while index < samples.count
        return writer.takeBytes()
    }

    private static func checkSize(_ payloadCount: Int) throws(FileStoreError) {
        guard payloadCount <= RecordFrame.maximumPayload else {
            throw .recordTooLarge(bytes: payloadCount, limit: RecordFrame.maximumPayload)
        }
    }

    /// Merges the decoded records of one change (see ``encodeRecords(_:recordSize:)``); `nil` when they are not
    /// parts of one insert or one delete.
    static func merge(_ parts: [StoreMutation]) -> StoreMutation? {
        guard let first = parts.first else { return nil }
        guard parts.count > 1 else { return first }
        switch first {
        case .insert:
            let samples = concatenated(parts) { if case .insert(let samples) = $0 { samples } else { nil } }
            return samples.map(StoreMutation.insert)
        case .delete:
            let uuids = concatenated(parts) { if case .delete(let uuids) = $0 { uuids } else { nil } }
            return uuids.map(StoreMutation.delete)
        case .insertRecordings:
            let recordings = concatenated(parts) { if case .insertRecordings(let more) = $0 { more } else { nil } }
            return recordings.map(StoreMutation.insertRecordings)
        case .insertWorkoutRecordings:
            let recordings = concatenated(parts) {
                if case .insertWorkoutRecordings(let more) = $0 { more } else { nil }
            }
            return recordings.map(StoreMutation.insertWorkoutRecordings)
        case .authorization:
            return nil
        }
    }

    /// The elements `elements` finds in every part, in order; `nil` when a part is of another kind.
    private static func concatenated<Element>(
        _ parts: [StoreMutation], _ elements: (StoreMutation) -> [Element]?
    ) -> [Element]? {
        var all: [Element] = []
        for part in parts {
            guard let more = elements(part) else { return nil }
            all.append(contentsOf: more)
        }
        return all
    }

    static func encode(_ mutation: StoreMutation) -> (kind: RecordKind, payload: [UInt8]) {
        switch mutation {
        case .insert(let samples):
            var writer = BinaryWriter(capacity: 128 * samples.count)
            writer.count(samples.count)
            for sample in samples { SampleCodec.encode(sample, into: &writer) }
            return (.insert, writer.bytes)
        case .delete(let uuids):
            var writer = BinaryWriter(capacity: 4 + 16 * uuids.count)
            writer.count(uuids.count)
            for uuid in uuids { writer.uuid(uuid) }
            return (.delete, writer.bytes)
        case .authorization(let share, let read, let request):
            var writer = BinaryWriter()
            for types in [request.share, request.read, share, read] { encodeTypes(types, into: &writer) }
            return (.authorization, writer.bytes)
        case .insertRecordings(let recordings):
            var writer = BinaryWriter(capacity: recordings.reduce(256) { $0 + 16 * $1.voltageMeasurements.count })
            for recording in recordings {
                SampleCodec.encode(.electrocardiogram(recording.electrocardiogram), into: &writer)
                encodeMeasurements(recording.voltageMeasurements, into: &writer)
            }
            return (.recording, writer.bytes)
        case .insertWorkoutRecordings(let recordings):
            var writer = BinaryWriter(
                capacity: recordings.reduce(512) { $0 + 64 * $1.routes.reduce(0) { $0 + $1.locations.count } })
            for recording in recordings {
                SampleCodec.encode(.workout(recording.workout), into: &writer)
                encodeRoutes(recording.routes, into: &writer)
            }
            return (.workoutRecording, writer.bytes)
        }
    }

    static func encodeRoutes(_ routes: [HealthWorkoutRoute], into writer: inout BinaryWriter) {
        writer.count(routes.count)
        for route in routes {
            writer.count(route.locations.count)
            for location in route.locations {
                for (_, value) in location.fields { writer.double(value) }
            }
        }
    }

    /// Routes as ``encodeRoutes(_:into:)`` writes them, each checked by ``HealthWorkoutRoute/init(locations:)``.
    static func decodeRoutes(from reader: inout BinaryReader) throws(BinaryReader.Failure) -> [HealthWorkoutRoute] {
        let count = try reader.count()
        var routes: [HealthWorkoutRoute] = []
        routes.reserveCapacity(count)
        for _ in 0..<count {
            let locationCount = try reader.count(minimumSize: 64)
            var locations: [HealthWorkoutRoute.Location] = []
            locations.reserveCapacity(locationCount)
            for _ in 0..<locationCount {
                locations.append(
                    HealthWorkoutRoute.Location(
                        timestamp: Date(timeIntervalSinceReferenceDate: try reader.double()),
                        latitude: try reader.double(), longitude: try reader.double(), altitude: try reader.double(),
                        speed: try reader.double(), course: try reader.double(),
                        horizontalAccuracy: try reader.double(), verticalAccuracy: try reader.double()))
            }
            do throws(ValidationError) {
                routes.append(try HealthWorkoutRoute(locations: locations))
            } catch {
                throw BinaryReader.Failure(reason: "a workout route breaks the route rules")
            }
        }
        return routes
    }

    static func encodeMeasurements(
        _ measurements: [ElectrocardiogramVoltageMeasurement], into writer: inout BinaryWriter
    ) {
        writer.count(measurements.count)
        for measurement in measurements {
            writer.double(measurement.timeSinceSampleStart)
            writer.double(measurement.microvolts)
        }
    }

    static func decodeMeasurements(
        from reader: inout BinaryReader
    ) throws(BinaryReader.Failure) -> [ElectrocardiogramVoltageMeasurement] {
        let count = try reader.count(minimumSize: 16)
        var measurements: [ElectrocardiogramVoltageMeasurement] = []
        measurements.reserveCapacity(count)
        for _ in 0..<count {
            measurements.append(
                ElectrocardiogramVoltageMeasurement(
                    timeSinceSampleStart: try reader.double(), microvolts: try reader.double()))
        }
        return measurements
    }

    static func decode(
        kind: RecordKind, from reader: inout BinaryReader, samples decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> StoreMutation {
        let mutation: StoreMutation
        switch kind {
        case .insert:
            let count = try reader.count(minimumSize: 40)
            var samples: [HealthSample] = []
            samples.reserveCapacity(count)
            for _ in 0..<count { samples.append(try decoder.sample(from: &reader)) }
            mutation = .insert(samples)
        case .delete:
            let count = try reader.count(minimumSize: 16)
            var uuids: [UUID] = []
            uuids.reserveCapacity(count)
            for _ in 0..<count { uuids.append(try reader.uuid()) }
            mutation = .delete(uuids)
        case .authorization:
            let requestShare = try decodeTypes(from: &reader, decoder: &decoder)
            let requestRead = try decodeTypes(from: &reader, decoder: &decoder)
            let share = try decodeTypes(from: &reader, decoder: &decoder)
            let read = try decodeTypes(from: &reader, decoder: &decoder)
            mutation = .authorization(
                share: share, read: read, request: AuthorizationRequest(share: requestShare, read: requestRead))
        case .recording:
            guard case .electrocardiogram(let electrocardiogram) = try decoder.sample(from: &reader) else {
                throw BinaryReader.Failure(reason: "a recording holds a sample that is not an ECG")
            }
            let measurements = try decodeMeasurements(from: &reader)
            do throws(ValidationError) {
                mutation = .insertRecordings([
                    try ElectrocardiogramRecording(
                        electrocardiogram: electrocardiogram, voltageMeasurements: measurements)
                ])
            } catch {
                throw BinaryReader.Failure(reason: "a recording's measurements do not fit its ECG")
            }
        case .workoutRecording:
            guard case .workout(let workout) = try decoder.sample(from: &reader) else {
                throw BinaryReader.Failure(reason: "a workout recording holds a sample that is not a workout")
            }
            mutation = .insertWorkoutRecordings([
                WorkoutRecording(workout: workout, routes: try decodeRoutes(from: &reader))
            ])
        default:
            throw BinaryReader.Failure(reason: "a journal does not hold \(kind) records")
        }
        try reader.expectEnd()
        return mutation
    }

    static func encodeTypes(_ types: Set<HealthObjectType>, into writer: inout BinaryWriter) {
        writer.count(types.count)
        for type in types.sorted(by: { $0.identifier < $1.identifier }) { writer.string(type.identifier) }
    }

    static func decodeTypes(
        from reader: inout BinaryReader, decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> Set<HealthObjectType> {
        let count = try reader.count()
        var types = Set<HealthObjectType>(minimumCapacity: count)
        for _ in 0..<count { types.insert(try decoder.type(from: &reader)) }
        return types
    }
}
