import Foundation

/// Rebuilds a ``StoreState`` from a snapshot file (see ``SnapshotWriter`` for the format), checking that the
/// file is complete and agrees with itself. Any damage is a ``FileStoreError/corruptFile(name:offset:problem:)``:
/// a snapshot is renamed into place only once complete, so unlike a journal it has no torn tail.
///
/// Each record goes through three steps: it is **decoded** (``SnapshotRecord``: the payload as typed values),
/// **validated** against the records before it (order, a section per type, increasing sequences, samples under
/// their section's type, a UUID stored once, the end record's counts), and **applied** to the state being built.
/// At the end of the file the whole is validated (the end record present, every section complete, every
/// correlation member's correlation stored, the header's sequence) and the state made.
///
/// When `repairing`, damage is recorded instead (``FileStoreRepair``) and reading goes on: a damaged record is
/// skipped (or, when its frame is unreadable, everything up to the next intact record), a section with fewer
/// entries than announced is kept with the shortfall reported, a correlation member whose correlation was lost
/// is kept on its own, and a missing end record or authorization table gives way to what was read.
struct SnapshotReader {
    let fileSystem: any StoreFileSystem
    let directory: FileSystemPath
    let appBundleIdentifier: String
    var repairing = false

    /// What reading produced: the state, the header (`nil` only when a repair could not read it), and the
    /// repairs.
    struct Read {
        let state: StoreState
        let header: StoreFileHeader?
        let repairs: [FileStoreRepair]
        /// The file's size in bytes.
        let size: Int
    }

    /// Reads snapshot `generation`; a snapshot written before stores had an identity gets `legacyStoreID`.
    func read(generation: UInt64, legacyStoreID: UUID) throws(FileStoreError) -> Read {
        let name = StoreLayout.snapshotName(generation)
        let bytes = try fileSystem.readFile(at: directory.appending(name))
        var log = SnapshotDamageLog(file: name, repairing: repairing)
        do {
            let (state, header) = try rebuild(
                from: bytes, generation: generation, legacyStoreID: legacyStoreID, log: &log)
            return Read(state: state, header: header, repairs: log.repairs, size: bytes.count)
        } catch let damage as SnapshotDamage {
            throw .corruptFile(name: name, offset: damage.offset, problem: damage.problem)
        } catch let error as FileStoreError {
            throw error
        } catch {
            throw .corruptFile(name: name, offset: 0, problem: .undecodable("\(error)"))
        }
    }

    /// Walks the file's frames: each intact record decoded, validated and applied; damaged frames skipped up to
    /// the next intact record when repairing.
    private func rebuild(
        from bytes: [UInt8], generation: UInt64, legacyStoreID: UUID, log: inout SnapshotDamageLog
    ) throws -> (state: StoreState, header: StoreFileHeader?) {
        let magic = StoreLayout.snapshotMagic
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            try log.flag(SnapshotDamage(offset: 0, problem: .notAStoreFile), skipped: bytes.count)
            return (StoreState(appBundleIdentifier: appBundleIdentifier, storeID: legacyStoreID), nil)
        }
        let scanner = FrameScanner(bytes: bytes)
        var assembly = SnapshotAssembly(
            appBundleIdentifier: appBundleIdentifier, generation: generation, fileSize: bytes.count)
        var decoder = SampleDecoder(trustsKnownQuantitySamples: true)
        var offset = magic.count
        while true {
            switch scanner.scan(at: offset) {
            case .end:
                try assembly.validateEnd(at: offset, headerOffset: magic.count, log: &log)
                return (assembly.makeState(legacyStoreID: legacyStoreID), assembly.header)
            case .tornTail(let at, let problem), .corrupt(let at, let problem):
                guard log.repairing else { throw SnapshotDamage(offset: at, problem: problem) }
                let next = scanner.nextRecord(after: at) ?? bytes.count
                try log.flag(SnapshotDamage(offset: at, problem: problem), skipped: next - at)
                offset = next
            case .record(let kind, let payload, let next, let continues):
                do {
                    guard !continues else {
                        throw BinaryReader.Failure(reason: "a snapshot record flagged to continue")
                    }
                    try assembly.admit(kind, at: offset, log: &log)
                    var reader = BinaryReader(bytes, range: payload)
                    if kind == .additions {
                        try assembly.applyAdditions(from: &reader, decoder: &decoder, at: offset)
                    } else {
                        let record = try SnapshotRecord.decode(kind, from: &reader, decoder: &decoder)
                        try assembly.apply(record, at: offset)
                    }
                } catch let failure as BinaryReader.Failure {
                    try log.flag(
                        SnapshotDamage(offset: offset, problem: .undecodable(failure.reason)), skipped: next - offset)
                } catch let damage as SnapshotDamage {
                    try log.flag(damage, skipped: next - offset)
                }
                offset = next
            }
        }
    }
}

/// Damage at an offset of the snapshot being read.
private struct SnapshotDamage: Error {
    let offset: Int
    let problem: FileStoreError.Damage
}

/// Where damage goes: thrown, or recorded when repairing.
private struct SnapshotDamageLog {
    let file: String
    let repairing: Bool
    private(set) var repairs: [FileStoreRepair] = []

    init(file: String, repairing: Bool) {
        self.file = file
        self.repairing = repairing
    }

    /// Throws `damage`, unless repairing: then records it (`skipped` bytes, `lost` entries) and returns.
    mutating func flag(_ damage: SnapshotDamage, skipped: Int = 0, lost: Int = 0) throws(SnapshotDamage) {
        guard repairing else { throw damage }
        repairs.append(
            FileStoreRepair(
                file: file, offset: damage.offset, skippedBytes: skipped, problem: damage.problem, changesLost: 0,
                samplesLost: lost))
    }
}

/// The state being rebuilt from a snapshot's records, and what validating the next record needs to know of the
/// ones before it.
private struct SnapshotAssembly {
    /// One type's section as it is read.
    struct Section {
        let type: HealthObjectType
        let expectedAdditions: Int
        let expectedTombstones: Int
        var entries: [IndexedSample] = []
        var additions: [(sequence: UInt64, uuid: UUIDKey)] = []
        var tombstones: [StoredTombstone] = []

        /// Flags a section with fewer (or more) entries than its record announced, counting the entries lost.
        func checkComplete(at offset: Int, log: inout SnapshotDamageLog) throws(SnapshotDamage) {
            guard additions.count != expectedAdditions || tombstones.count != expectedTombstones else { return }
            try log.flag(
                SnapshotDamage(offset: offset, problem: .inconsistent("\(type)'s section is incomplete")),
                lost: missingEntries)
        }

        /// The entries the section's record announced that were not read.
        var missingEntries: Int {
            max(0, expectedAdditions - additions.count) + max(0, expectedTombstones - tombstones.count)
        }
    }

    let appBundleIdentifier: String
    let generation: UInt64
    let fileSize: Int
    private(set) var header: StoreFileHeader?
    private var authorization: AuthorizationTable?
    private var sections: [Section] = []
    private var slots: [HealthObjectType: Int] = [:]
    private var locations = UUIDTable<StoreState.Location>()
    private var correlations = UUIDTable<UUID>()
    private var series: [UUID: HealthSampleSeries] = [:]
    private var members: [(member: UUID, correlation: UUID)] = []
    private var endSequence: UInt64?
    private var lastSequence: UInt64 = 0

    init(appBundleIdentifier: String, generation: UInt64, fileSize: Int) {
        self.appBundleIdentifier = appBundleIdentifier
        self.generation = generation
        self.fileSize = fileSize
    }

    // MARK: Validate a record's place (before it is decoded)

    /// Checks that a record of `kind` may come next: after the header, the authorization table, then per type a
    /// section record, its additions, its tombstones; the end record last. A new section first checks that the
    /// one before it is complete.
    mutating func admit(_ kind: RecordKind, at offset: Int, log: inout SnapshotDamageLog) throws {
        let outOfOrder = BinaryReader.Failure(reason: "out of order")
        guard endSequence == nil else {
            throw SnapshotDamage(offset: offset, problem: .inconsistent("records follow the end record"))
        }
        switch kind {
        case .header:
            guard header == nil else { throw BinaryReader.Failure(reason: "a second header") }
        case .authorizationTable:
            guard header != nil, authorization == nil else { throw outOfOrder }
        case .typeSection:
            guard authorization != nil else { throw outOfOrder }
            try sections.last?.checkComplete(at: offset, log: &log)
        case .additions:
            guard let section = sections.last, section.tombstones.isEmpty else { throw outOfOrder }
        case .tombstones:
            guard !sections.isEmpty else { throw outOfOrder }
        case .end, .voltages, .routes, .heartbeats:
            // The series records (SeriesKind/snapshotRecord) and the end.
            guard authorization != nil else { throw outOfOrder }
        case .insert, .delete, .authorization, .recording, .workoutRecording, .addedRoutes, .heartbeatRecording,
            .announcedRoutes:
            break
        }
    }

    // MARK: Validate a decoded record against the ones before it, and apply it

    /// Validates `record` against the records before it and applies it; a record of entries applies the entries
    /// before the first that fails.
    mutating func apply(_ record: SnapshotRecord, at offset: Int) throws {
        switch record {
        case .header(let read):
            guard read.appBundleIdentifier == appBundleIdentifier else {
                throw FileStoreError.differentApp(stored: read.appBundleIdentifier, configured: appBundleIdentifier)
            }
            guard read.generation == generation else {
                throw SnapshotDamage(
                    offset: offset, problem: .inconsistent("the header names generation \(read.generation)"))
            }
            header = read
        case .authorizationTable(let table):
            authorization = table
        case .typeSection(let type, let additions, let tombstones):
            guard slots[type] == nil else {
                throw SnapshotDamage(offset: offset, problem: .inconsistent("\(type) has two sections"))
            }
            openSection(type, additions: additions, tombstones: tombstones)
        case .additions(let entries):
            var previous = sections[sections.count - 1].additions.last?.sequence ?? 0
            for addition in entries.decoded { try add(addition, after: &previous, at: offset) }
            try Self.checkFailure(of: entries, after: previous)
        case .tombstones(let entries):
            var previous = sections[sections.count - 1].tombstones.last?.sequence ?? 0
            for tombstone in entries.decoded {
                try Self.checkIncreasing(tombstone.sequence, after: &previous)
                try bury(tombstone)
            }
            try Self.checkFailure(of: entries, after: previous)
        case .end(let sequence, let sectionCount, let liveCount):
            guard sequence >= lastSequence, sectionCount == sections.count, liveCount == locations.count else {
                throw SnapshotDamage(offset: offset, problem: .inconsistent("the end record disagrees with the file"))
            }
            endSequence = sequence
        case .series(let uuid, let kept):
            let names = kept.kind.names
            guard let location = locations[UUIDKey(uuid)], let sample = liveSample(at: location),
                sample.type == kept.kind.sampleType
            else {
                throw SnapshotDamage(
                    offset: offset, problem: .inconsistent("\(names.series) of \(names.sample) that is not stored"))
            }
            guard series[uuid] == nil else {
                throw SnapshotDamage(
                    offset: offset, problem: .inconsistent("\(names.sample)'s \(names.series) are stored twice"))
            }
            if let problem = kept.problem(beside: sample) {
                throw SnapshotDamage(offset: offset, problem: .inconsistent(problem))
            }
            // An empty series holds nothing to keep (the state keeps none).
            if !kept.isEmpty { series[uuid] = kept }
        }
    }

    /// The live sample at `location`: a section's entries are in addition order, so by increasing sequence (each
    /// addition was checked to follow the one before).
    /// - Complexity: O(log n) in the section's entries.
    private func liveSample(at location: StoreState.Location) -> HealthSample? {
        let entries = sections[location.slot].entries
        let position = entries.partitioningIndex { $0.sequence >= location.sequence }
        guard position < entries.count, entries[position].sequence == location.sequence else { return nil }
        return entries[position].sample
    }

    /// Decodes an additions record and applies each entry as it is decoded, as ``apply(_:at:)`` applies the
    /// decoded record (the same checks in the same order, the same entries kept before a failure), without an
    /// array of the record's samples between the two steps.
    mutating func applyAdditions(
        from reader: inout BinaryReader, decoder: inout SampleDecoder, at offset: Int
    ) throws {
        var previous = sections[sections.count - 1].additions.last?.sequence ?? 0
        let end = try SnapshotRecord.forEachAddition(from: &reader, decoder: &decoder) { addition in
            try add(addition, after: &previous, at: offset)
        }
        try Self.checkFailure(of: end, after: previous)
    }

    /// Applies one addition whose sequence must follow `previous`.
    private mutating func add(
        _ addition: SnapshotRecord.Addition, after previous: inout UInt64, at offset: Int
    ) throws {
        try Self.checkIncreasing(addition.sequence, after: &previous)
        try add(addition, at: offset)
    }

    private static func checkIncreasing(_ sequence: UInt64, after previous: inout UInt64) throws(BinaryReader.Failure) {
        guard sequence > previous else { throw BinaryReader.Failure(reason: "sequences do not increase") }
        previous = sequence
    }

    /// Throws why the entry after the decoded ones failed; one whose sequence was read is first held to the rule
    /// of increasing sequences, as that is checked before the rest of an entry is read.
    private static func checkFailure<Entry>(
        of entries: SnapshotRecord.Entries<Entry>, after previous: UInt64
    ) throws(BinaryReader.Failure) {
        guard let failure = entries.failure else { return }
        var previous = previous
        if let sequence = entries.failedSequence { try checkIncreasing(sequence, after: &previous) }
        throw failure
    }

    private mutating func openSection(_ type: HealthObjectType, additions: Int, tombstones: Int) {
        slots[type] = sections.count
        var section = Section(type: type, expectedAdditions: additions, expectedTombstones: tombstones)
        // Reserve what the counts promise, but no more than the file could hold (a count is not trusted before
        // the records it announces are read).
        let plausible = min(additions, fileSize / 24)
        section.entries.reserveCapacity(plausible)
        section.additions.reserveCapacity(plausible)
        section.tombstones.reserveCapacity(min(tombstones, fileSize / 48))
        if sections.isEmpty {
            // A live sample takes at least 48 bytes here, so this bounds the count: no rehashing.
            locations.reserveCapacity(fileSize / 48)
        }
        sections.append(section)
    }

    /// Applies one entry of the last section's additions log.
    private mutating func add(_ addition: SnapshotRecord.Addition, at offset: Int) throws {
        let slot = sections.count - 1
        switch addition {
        case .removed(let sequence, let uuid):
            sections[slot].additions.append((sequence, UUIDKey(uuid)))
        case .live(let sequence, let sample, let correlation):
            let keys = SampleKeys(sample)
            guard keys.typeIdentifier == sections[slot].type.identifier else {
                throw BinaryReader.Failure(reason: "a sample is filed under another type")
            }
            let entry = IndexedSample(
                sample: sample, start: keys.start, end: keys.end, sequence: sequence,
                isOwned: keys.bundleIdentifier == appBundleIdentifier)
            let location = StoreState.Location(slot: slot, start: entry.start, sequence: sequence)
            let uuid = UUIDKey(keys.uuid)
            guard locations.updateValue(location, forKey: uuid) == nil else {
                throw SnapshotDamage(
                    offset: offset, problem: .inconsistent("UUID \(keys.uuid.uuidString) is stored twice"))
            }
            if let correlation {
                members.append((keys.uuid, correlation))
                correlations[uuid] = correlation
            }
            sections[slot].additions.append((sequence, uuid))
            sections[slot].entries.append(entry)
        }
        lastSequence = max(lastSequence, addition.sequence)
    }

    /// Applies one entry of the last section's tombstones.
    private mutating func bury(_ tombstone: SnapshotRecord.Tombstone) throws(BinaryReader.Failure) {
        let slot = sections.count - 1
        guard tombstone.sample.type == sections[slot].type else {
            throw BinaryReader.Failure(reason: "a sample is filed under another type")
        }
        sections[slot].tombstones.append(
            StoredTombstone(
                sequence: tombstone.sequence, object: HealthDeletedObject(deleting: tombstone.sample),
                sample: tombstone.sample))
        lastSequence = max(lastSequence, tombstone.sequence)
    }

    // MARK: Validate the whole, and make the state

    /// The change sequence the state ends at: the end record's, or (without one: a file cut short) the header's,
    /// whose changes a repair counts as lost when their records are missing (so the journal that follows the
    /// snapshot continues from it), or the last change read.
    private var sequence: UInt64 { max(endSequence ?? header?.startSequence ?? lastSequence, lastSequence) }

    /// Validates the file as a whole once its records are read: the end record, authorization table and header
    /// present, every correlation member's correlation stored (a member whose correlation is not is detached, to
    /// be kept on its own), the last section complete, and the header's start sequence where the records end.
    mutating func validateEnd(at offset: Int, headerOffset: Int, log: inout SnapshotDamageLog) throws {
        if endSequence == nil || authorization == nil || header == nil {
            try log.flag(SnapshotDamage(offset: offset, problem: .truncated), lost: changesMissing)
        }
        for (member, correlation) in members where locations[UUIDKey(correlation)] == nil {
            try log.flag(
                SnapshotDamage(
                    offset: offset,
                    problem: .inconsistent(
                        "member \(member.uuidString) names a correlation that is not stored; kept on its own")))
            correlations.removeValue(forKey: UUIDKey(member))
        }
        try sections.last?.checkComplete(at: offset, log: &log)
        if let start = header?.startSequence, start != sequence {
            try log.flag(
                SnapshotDamage(
                    offset: headerOffset,
                    problem: .inconsistent("the header names sequence \(start), the records end at \(sequence)")))
        }
    }

    /// The changes a snapshot cut short lost with the records it no longer has, sections of whole types
    /// included: every change up to the header's sequence left one entry in a section's additions (the
    /// insertion, kept even once deleted) or tombstones (the deletion), so the entries neither read nor counted
    /// by the last, incomplete section are the ones lost. 0 when the header is missing or names no sequence.
    private var changesMissing: Int {
        guard let start = header?.startSequence else { return 0 }
        let read = sections.reduce(0) { $0 + $1.additions.count + $1.tombstones.count }
        let countedByLastSection = sections.last.map { $0.missingEntries } ?? 0
        return max(0, Int(clamping: start) - read - countedByLastSection)
    }

    /// The store state the records make.
    func makeState(legacyStoreID: UUID) -> StoreState {
        let indexes = sections.map {
            TypeIndex(restoringEntries: $0.entries, additions: $0.additions, tombstones: $0.tombstones)
        }
        return StoreState(
            appBundleIdentifier: appBundleIdentifier, storeID: header?.storeID ?? legacyStoreID,
            authorization: authorization ?? AuthorizationTable(), indexes: indexes, slots: slots,
            locations: locations, correlations: correlations, sequence: sequence, series: series)
    }
}
