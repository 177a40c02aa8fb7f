import Foundation

/// A snapshot record's payload as typed values: the decode step of ``SnapshotReader``. Decoding looks at the
/// payload alone; whether the record fits the ones before it (order, counts, increasing sequences, a sample's
/// type, UUIDs stored once) is the reader's to check.
enum SnapshotRecord {
    /// One entry of a type's additions log.
    enum Addition {
        /// A sample added and since deleted: only its UUID is kept.
        case removed(sequence: UInt64, uuid: UUID)
        /// A live sample, with the correlation it is a member of.
        case live(sequence: UInt64, sample: HealthSample, correlation: UUID?)

        var sequence: UInt64 {
            switch self {
            case .removed(let sequence, _), .live(let sequence, _, _): sequence
            }
        }
    }

    /// One entry of a type's tombstones: the deletion's sequence and the sample deleted.
    struct Tombstone {
        let sequence: UInt64
        let sample: HealthSample
    }

    /// A record of entries, as far as they decoded: a payload damaged part way keeps the entries before the
    /// damage, as the reader keeps them.
    struct Entries<Entry> {
        var decoded: [Entry] = []
        /// Why the entry after `decoded` did not decode, if one did not.
        var failure: BinaryReader.Failure?
        /// The sequence of the entry that did not decode, when it was read before the failure.
        var failedSequence: UInt64?
    }

    case header(StoreFileHeader)
    case authorizationTable(AuthorizationTable)
    /// A type's section begins: the number of additions and tombstones its records hold.
    case typeSection(type: HealthObjectType, additions: Int, tombstones: Int)
    case additions(Entries<Addition>)
    case tombstones(Entries<Tombstone>)
    /// The series kept beside a live sample (an ECG's voltages, a workout's routes).
    case series(UUID, HealthSampleSeries)
    /// The last record: the change sequence number, and the counts of sections and live samples.
    case end(sequence: UInt64, sections: Int, live: Int)

    /// Decodes a record of `kind` from its payload.
    /// - Throws: A ``BinaryReader/Failure`` when the payload is not a record of that kind (entries records never
    ///   throw: their failure is part of ``Entries``), or `kind` is a journal record.
    static func decode(
        _ kind: RecordKind, from reader: inout BinaryReader, decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> SnapshotRecord {
        if let seriesKind = SeriesKind(snapshotRecord: kind) {
            let uuid = try reader.uuid()
            let series = try HealthSampleSeries.decode(seriesKind, from: &reader)
            try reader.expectEnd()
            return .series(uuid, series)
        }
        switch kind {
        case .header:
            return .header(try StoreFileHeader(from: &reader))
        case .authorizationTable:
            return .authorizationTable(try decodeAuthorization(from: &reader, decoder: &decoder))
        case .typeSection:
            let type = try decoder.type(from: &reader)
            let additions = try reader.integer()
            let tombstones = try reader.integer()
            try reader.expectEnd()
            return .typeSection(type: type, additions: additions, tombstones: tombstones)
        case .additions:
            return .additions(entries(from: &reader, decoder: &decoder, addition))
        case .tombstones:
            return .tombstones(
                entries(from: &reader, decoder: &decoder) { sequence, reader, decoder throws(BinaryReader.Failure) in
                    Tombstone(sequence: sequence, sample: try decoder.sample(from: &reader))
                })
        case .end:
            let sequence = try reader.uint64()
            let sections = try reader.integer()
            let live = try reader.integer()
            try reader.expectEnd()
            return .end(sequence: sequence, sections: sections, live: live)
        case .insert, .delete, .authorization, .recording, .workoutRecording, .addedRoutes, .heartbeatRecording,
            .announcedRoutes, .voltages, .routes, .heartbeats:
            throw BinaryReader.Failure(reason: "a snapshot does not hold \(kind) records")
        }
    }

    /// The payload of an additions record decoded as ``decode(_:from:decoder:)`` decodes it, each entry handed to
    /// `body` as soon as it is decoded instead of kept in an array (so a reader applies entries straight into the
    /// store's indexes, without copying each sample into and out of an array). Stops at the first entry that does
    /// not decode, or when `body` throws.
    /// - Returns: How decoding ended: the failure and failed sequence, as in ``Entries`` (whose entries went to
    ///   `body`).
    static func forEachAddition<Failure: Error>(
        from reader: inout BinaryReader, decoder: inout SampleDecoder, _ body: (Addition) throws(Failure) -> Void
    ) throws(Failure) -> Entries<Never> {
        try forEachEntry(from: &reader, decoder: &decoder, addition, body)
    }

    private static func addition(
        sequence: UInt64, from reader: inout BinaryReader, decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> Addition {
        let state = try reader.byte()
        switch state {
        case 0:
            return .removed(sequence: sequence, uuid: try reader.uuid())
        case 1, 2:
            let correlation = state == 2 ? try reader.uuid() : nil
            return .live(sequence: sequence, sample: try decoder.sample(from: &reader), correlation: correlation)
        default:
            throw BinaryReader.Failure(reason: "unknown addition state")
        }
    }

    /// Decodes entries up to the payload's end or the first that fails: each a sequence (delta-coded from the
    /// record's previous entry) and what `entry` reads after it.
    private static func entries<Entry>(
        from reader: inout BinaryReader, decoder: inout SampleDecoder,
        _ entry: (UInt64, inout BinaryReader, inout SampleDecoder) throws(BinaryReader.Failure) -> Entry
    ) -> Entries<Entry> {
        var decoded: [Entry] = []
        let end = forEachEntry(from: &reader, decoder: &decoder, entry) { decoded.append($0) }
        return Entries(decoded: decoded, failure: end.failure, failedSequence: end.failedSequence)
    }

    /// ``entries(from:decoder:_:)``, each entry handed to `body` as it is decoded.
    private static func forEachEntry<Entry, Failure: Error>(
        from reader: inout BinaryReader, decoder: inout SampleDecoder,
        _ entry: (UInt64, inout BinaryReader, inout SampleDecoder) throws(BinaryReader.Failure) -> Entry,
        _ body: (Entry) throws(Failure) -> Void
    ) throws(Failure) -> Entries<Never> {
        var end = Entries<Never>()
        var base: UInt64 = 0
        while !reader.isAtEnd {
            do throws(BinaryReader.Failure) {
                base = base &+ (try reader.varint())
            } catch {
                end.failure = error
                return end
            }
            let decoded: Entry
            do throws(BinaryReader.Failure) {
                decoded = try entry(base, &reader, &decoder)
            } catch {
                end.failure = error
                end.failedSequence = base
                return end
            }
            try body(decoded)
        }
        return end
    }

    private static func decodeAuthorization(
        from reader: inout BinaryReader, decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> AuthorizationTable {
        var tables: [[HealthObjectType: Bool]] = []
        for _ in 0..<2 {
            let count = try reader.count(minimumSize: 2)
            var answers: [HealthObjectType: Bool] = [:]
            for _ in 0..<count {
                let type = try decoder.type(from: &reader)
                let allowed = try reader.byte()
                guard allowed <= 1 else { throw BinaryReader.Failure(reason: "an answer is not a Boolean") }
                answers[type] = allowed == 1
            }
            tables.append(answers)
        }
        try reader.expectEnd()
        return AuthorizationTable(share: tables[0], read: tables[1])
    }
}
