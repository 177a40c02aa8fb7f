import Foundation

/// Rebuilds a ``StoreState`` from a snapshot file (see ``SnapshotWriter`` for the format), checking that the
/// file is complete and agrees with itself. Any damage is a ``FileStoreError/corruptFile(name:offset:problem:)``:
/// a snapshot is renamed into place only once complete, so unlike a journal it has no torn tail.
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
    }

    /// One type's section as it is read.
    private struct Section {
        let type: HealthObjectType
        let expectedAdditions: Int
        let expectedTombstones: Int
        var entries: [IndexedSample] = []
        var additions: [(sequence: UInt64, uuid: UUID)] = []
        var tombstones: [StoredTombstone] = []
    }

    private struct Damage: Error {
        let offset: Int
        let problem: FileStoreError.Damage
    }

    /// Reads snapshot `generation`; a snapshot written before stores had an identity gets `legacyStoreID`.
    func read(generation: UInt64, legacyStoreID: UUID) throws(FileStoreError) -> Read {
        let name = StoreLayout.snapshotName(generation)
        let bytes = try fileSystem.readFile(at: directory.appending(name))
        do {
            var repairs: [FileStoreRepair] = []
            let (state, header) = try rebuild(
                from: bytes, generation: generation, legacyStoreID: legacyStoreID, name: name, repairs: &repairs)
            return Read(state: state, header: header, repairs: repairs)
        } catch let damage as Damage {
            throw .corruptFile(name: name, offset: damage.offset, problem: damage.problem)
        } catch let error as FileStoreError {
            throw error
        } catch {
            throw .corruptFile(name: name, offset: 0, problem: .undecodable("\(error)"))
        }
    }

    /// Throws `damage`, unless repairing: then records it (`skipped` bytes, `lost` entries) and returns.
    private func flag(
        _ damage: Damage, skipped: Int = 0, lost: Int = 0, name: String, into repairs: inout [FileStoreRepair]
    ) throws {
        guard repairing else { throw damage }
        repairs.append(
            FileStoreRepair(
                file: name, offset: damage.offset, skippedBytes: skipped, problem: damage.problem,
                changesLost: 0, samplesLost: lost))
    }

    private func rebuild(
        from bytes: [UInt8], generation: UInt64, legacyStoreID: UUID, name: String, repairs: inout [FileStoreRepair]
    ) throws -> (state: StoreState, header: StoreFileHeader?) {
        let magic = StoreLayout.snapshotMagic
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            try flag(Damage(offset: 0, problem: .notAStoreFile), skipped: bytes.count, name: name, into: &repairs)
            return (StoreState(appBundleIdentifier: appBundleIdentifier, storeID: legacyStoreID), nil)
        }
        let scanner = FrameScanner(bytes: bytes)
        var offset = magic.count
        var decoder = SampleDecoder()
        var authorization: AuthorizationTable?
        var sections: [Section] = []
        var slots: [HealthObjectType: Int] = [:]
        var locations: [UUID: StoreState.Location] = [:]
        var members: [(member: UUID, correlation: UUID)] = []
        var header: StoreFileHeader?
        var endSequence: UInt64?
        var lastSequence: UInt64 = 0

        while true {
            let recordOffset = offset
            let kind: RecordKind
            let payload: Range<Int>
            switch scanner.scan(at: offset) {
            case .end:
                if endSequence == nil || authorization == nil || header == nil {
                    try flag(Damage(offset: offset, problem: .truncated), name: name, into: &repairs)
                }
                for (member, correlation) in members where locations[correlation] == nil {
                    try flag(
                        Damage(
                            offset: offset,
                            problem: .inconsistent(
                                "member \(member.uuidString) names a correlation that is not stored; kept on its own")),
                        name: name, into: &repairs)
                    if let location = locations[member] {
                        locations[member] = StoreState.Location(
                            slot: location.slot, start: location.start, sequence: location.sequence, correlation: nil)
                    }
                }
                if let section = sections.last { try checkComplete(section, at: offset, name: name, repairs: &repairs) }
                let endSequence = endSequence ?? lastSequence
                let indexes = sections.map {
                    TypeIndex(restoringEntries: $0.entries, additions: $0.additions, tombstones: $0.tombstones)
                }
                let sequence = max(endSequence, lastSequence)
                if let start = header?.startSequence, start != sequence {
                    try flag(
                        Damage(
                            offset: magic.count,
                            problem: .inconsistent("the header names sequence \(start), the records end at \(sequence)")
                        ),
                        name: name, into: &repairs)
                }
                let state = StoreState(
                    appBundleIdentifier: appBundleIdentifier, storeID: header?.storeID ?? legacyStoreID,
                    authorization: authorization ?? AuthorizationTable(), indexes: indexes, slots: slots,
                    locations: locations, sequence: sequence)
                return (state, header)
            case .tornTail(let at, let problem), .corrupt(let at, let problem):
                guard repairing else { throw Damage(offset: at, problem: problem) }
                let next = scanner.nextRecord(after: at) ?? bytes.count
                try flag(Damage(offset: at, problem: problem), skipped: next - at, name: name, into: &repairs)
                offset = next
                continue
            case .record(let recordKind, let range, let next, let continues):
                kind = recordKind
                payload = range
                offset = next
                guard !continues else {
                    try flag(
                        Damage(offset: recordOffset, problem: .undecodable("a snapshot record flagged to continue")),
                        skipped: next - recordOffset, name: name, into: &repairs)
                    continue
                }
            }
            guard endSequence == nil else {
                try flag(
                    Damage(offset: recordOffset, problem: .inconsistent("records follow the end record")),
                    skipped: offset - recordOffset, name: name, into: &repairs)
                continue
            }
            var reader = BinaryReader(bytes, range: payload)
            do {
                switch kind {
                case .header:
                    guard header == nil else { throw BinaryReader.Failure(reason: "a second header") }
                    let read = try StoreFileHeader(from: &reader)
                    guard read.appBundleIdentifier == appBundleIdentifier else {
                        throw FileStoreError.differentApp(
                            stored: read.appBundleIdentifier, configured: appBundleIdentifier)
                    }
                    guard read.generation == generation else {
                        throw Damage(
                            offset: recordOffset,
                            problem: .inconsistent("the header names generation \(read.generation)"))
                    }
                    header = read
                case .authorizationTable:
                    guard header != nil, authorization == nil else {
                        throw BinaryReader.Failure(reason: "out of order")
                    }
                    authorization = try Self.decodeAuthorization(from: &reader, decoder: &decoder)
                case .typeSection:
                    guard authorization != nil else { throw BinaryReader.Failure(reason: "out of order") }
                    if let section = sections.last {
                        try checkComplete(section, at: recordOffset, name: name, repairs: &repairs)
                    }
                    let type = try decoder.type(from: &reader)
                    let additions = try reader.integer()
                    let tombstones = try reader.integer()
                    try reader.expectEnd()
                    guard slots[type] == nil else {
                        throw Damage(offset: recordOffset, problem: .inconsistent("\(type) has two sections"))
                    }
                    slots[type] = sections.count
                    var section = Section(type: type, expectedAdditions: additions, expectedTombstones: tombstones)
                    // Reserve what the counts promise, but no more than the file could hold (a count is not
                    // trusted before the records it announces are read).
                    let plausible = min(additions, bytes.count / 24)
                    section.entries.reserveCapacity(plausible)
                    section.additions.reserveCapacity(plausible)
                    section.tombstones.reserveCapacity(min(tombstones, bytes.count / 48))
                    if sections.isEmpty {
                        // A live sample takes at least 48 bytes here, so this bounds the count: no rehashing.
                        locations.reserveCapacity(bytes.count / 48)
                    }
                    sections.append(section)
                case .additions:
                    guard !sections.isEmpty, sections[sections.count - 1].tombstones.isEmpty else {
                        throw BinaryReader.Failure(reason: "out of order")
                    }
                    let slot = sections.count - 1
                    var previous = sections[slot].additions.last?.sequence ?? 0
                    var base: UInt64 = 0
                    while !reader.isAtEnd {
                        let sequence = base &+ (try reader.varint())
                        base = sequence
                        guard sequence > previous else {
                            throw BinaryReader.Failure(reason: "sequences do not increase")
                        }
                        previous = sequence
                        let state = try reader.byte()
                        switch state {
                        case 0:
                            sections[slot].additions.append((sequence, try reader.uuid()))
                        case 1, 2:
                            let correlation = state == 2 ? try reader.uuid() : nil
                            let sample = try decoder.sample(from: &reader)
                            guard sample.type == sections[slot].type else {
                                throw BinaryReader.Failure(reason: "a sample is filed under another type")
                            }
                            let entry = IndexedSample(
                                sample: sample, sequence: sequence,
                                isOwned: sample.source.bundleIdentifier == appBundleIdentifier)
                            let location = StoreState.Location(
                                slot: slot, start: entry.start, sequence: sequence, correlation: correlation)
                            guard locations.updateValue(location, forKey: sample.uuid) == nil else {
                                throw Damage(
                                    offset: recordOffset,
                                    problem: .inconsistent("UUID \(sample.uuid.uuidString) is stored twice"))
                            }
                            if let correlation { members.append((sample.uuid, correlation)) }
                            sections[slot].additions.append((sequence, sample.uuid))
                            sections[slot].entries.append(entry)
                        default:
                            throw BinaryReader.Failure(reason: "unknown addition state")
                        }
                        lastSequence = max(lastSequence, sequence)
                    }
                case .tombstones:
                    guard !sections.isEmpty else { throw BinaryReader.Failure(reason: "out of order") }
                    let slot = sections.count - 1
                    var previous = sections[slot].tombstones.last?.sequence ?? 0
                    var base: UInt64 = 0
                    while !reader.isAtEnd {
                        let sequence = base &+ (try reader.varint())
                        base = sequence
                        guard sequence > previous else {
                            throw BinaryReader.Failure(reason: "sequences do not increase")
                        }
                        previous = sequence
                        let sample = try decoder.sample(from: &reader)
                        guard sample.type == sections[slot].type else {
                            throw BinaryReader.Failure(reason: "a sample is filed under another type")
                        }
                        sections[slot].tombstones.append(
                            StoredTombstone(
                                sequence: sequence, object: HealthDeletedObject(deleting: sample), sample: sample))
                        lastSequence = max(lastSequence, sequence)
                    }
                case .end:
                    guard authorization != nil else { throw BinaryReader.Failure(reason: "out of order") }
                    let sequence = try reader.uint64()
                    let sectionCount = try reader.integer()
                    let liveCount = try reader.integer()
                    try reader.expectEnd()
                    guard sequence >= lastSequence, sectionCount == sections.count, liveCount == locations.count else {
                        throw Damage(
                            offset: recordOffset, problem: .inconsistent("the end record disagrees with the file"))
                    }
                    endSequence = sequence
                case .insert, .delete, .authorization:
                    throw BinaryReader.Failure(reason: "a snapshot does not hold \(kind) records")
                }
            } catch let failure as BinaryReader.Failure {
                try flag(
                    Damage(offset: recordOffset, problem: .undecodable(failure.reason)), skipped: offset - recordOffset,
                    name: name, into: &repairs)
            } catch let damage as Damage {
                try flag(damage, skipped: offset - recordOffset, name: name, into: &repairs)
            }
        }
    }

    private func checkComplete(
        _ section: Section, at offset: Int, name: String, repairs: inout [FileStoreRepair]
    ) throws {
        guard section.additions.count == section.expectedAdditions,
            section.tombstones.count == section.expectedTombstones
        else {
            let lost =
                max(0, section.expectedAdditions - section.additions.count)
                + max(0, section.expectedTombstones - section.tombstones.count)
            try flag(
                Damage(offset: offset, problem: .inconsistent("\(section.type)'s section is incomplete")), lost: lost,
                name: name, into: &repairs)
            return
        }
    }

    static func decodeAuthorization(
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
