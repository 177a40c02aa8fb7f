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
/// series record = (sample series)+                        (samples ingested with their series, of the kind
///                                                           SeriesKind/journalRecord names; a batch is written
///                                                           one record per sample)
/// recording     = sample voltages                         (kind 5: one ECG; HealthSampleSeries's voltages)
/// workoutRecording = sample routes                        (kind 6: one workout; HealthSampleSeries's routes)
/// announcedRoutes = uuid:16 routes                        (kind 9: routes added to a stored workout, which
///                                                           takes the next sequence number;
///                                                           SeriesKind/additionRecord)
/// addedRoutes   = uuid:16 routes                          (kind 7: the same as written before, the workout
///                                                           keeping its number; SeriesKind/legacyAdditionRecord)
/// heartbeatRecording = sample heartbeats                  (kind 8: one heartbeat series; HealthSampleSeries's
///                                                           heartbeats)
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
        case .authorization, .addSeries:
            return [encode(mutation)]
        case .insertSeries(let entries):
            // An empty batch inserts nothing, as an empty insert does (a series record holds one sample).
            guard !entries.isEmpty else { return encodeRecords(.insert([]), recordSize: recordSize) }
            return entries.map { encode(.insertSeries([$0])) }
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
        case .insertSeries:
            let entries = concatenated(parts) { if case .insertSeries(let more) = $0 { more } else { nil } }
            return entries.map(StoreMutation.insertSeries)
        case .authorization, .addSeries:
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
        case .insertSeries(let entries):
            // `encodeRecords` hands this one entry at a time; several (of the batch's one kind) follow each other.
            guard let kind = entries.first?.series.kind else { return encode(.insert([])) }
            var writer = BinaryWriter(capacity: entries.reduce(256) { $0 + 128 + $1.series.encodedSize })
            for entry in entries {
                SampleCodec.encode(entry.sample, into: &writer)
                entry.series.encode(into: &writer)
            }
            return (kind.journalRecord, writer.bytes)
        case .addSeries(let uuid, let series, let announces):
            var writer = BinaryWriter(capacity: 16 + series.encodedSize)
            writer.uuid(uuid)
            series.encode(into: &writer)
            // Only kinds that take additions are added (``StoreState/additionProblem(_:to:)``).
            let record = announces ? series.kind.additionRecord : series.kind.legacyAdditionRecord
            return (record ?? .announcedRoutes, writer.bytes)
        }
    }

    static func decode(
        kind: RecordKind, from reader: inout BinaryReader, samples decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> StoreMutation {
        if let seriesKind = SeriesKind(journalRecord: kind) {
            var entries: [SeriesSample] = []
            repeat {
                let sample = try decoder.sample(from: &reader)
                let series = try HealthSampleSeries.decode(seriesKind, from: &reader)
                if let problem = series.problem(beside: sample) { throw BinaryReader.Failure(reason: problem) }
                entries.append(SeriesSample(sample: sample, series: series))
            } while !reader.isAtEnd
            return .insertSeries(entries)
        }
        if let addition = SeriesKind.addition(record: kind) {
            let uuid = try reader.uuid()
            let added = StoreMutation.addSeries(
                uuid, try HealthSampleSeries.decode(addition.kind, from: &reader), announces: addition.announces)
            try reader.expectEnd()
            return added
        }
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
