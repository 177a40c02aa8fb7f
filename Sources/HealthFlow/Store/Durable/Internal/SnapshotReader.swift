import Foundation

/// Rebuilds a ``StoreState`` from a snapshot file (see ``SnapshotWriter`` for the format), checking that the
/// file is complete and agrees with itself. Any damage is a ``FileStoreError/corruptFile(name:offset:problem:)``:
/// a snapshot is renamed into place only once complete, so unlike a journal it has no torn tail.
struct SnapshotReader {
    let fileSystem: any StoreFileSystem
    let directory: String
    let appBundleIdentifier: String

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

    func read(generation: UInt64) throws(FileStoreError) -> StoreState {
        let name = StoreLayout.snapshotName(generation)
        let bytes = try fileSystem.readFile(at: directory + "/" + name)
        do {
            return try rebuild(from: bytes, generation: generation)
        } catch let damage as Damage {
            throw .corruptFile(name: name, offset: damage.offset, problem: damage.problem)
        } catch let error as FileStoreError {
            throw error
        } catch {
            throw .corruptFile(name: name, offset: 0, problem: .undecodable("\(error)"))
        }
    }

    private func rebuild(from bytes: [UInt8], generation: UInt64) throws -> StoreState {
        let magic = StoreLayout.snapshotMagic
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw Damage(offset: 0, problem: .notAStoreFile)
        }
        let scanner = FrameScanner(bytes: bytes)
        var offset = magic.count
        var decoder = SampleDecoder()
        var authorization: AuthorizationTable?
        var sections: [Section] = []
        var slots: [HealthObjectType: Int] = [:]
        var locations: [UUID: StoreState.Location] = [:]
        var members: [(member: UUID, correlation: UUID)] = []
        var sawHeader = false
        var endSequence: UInt64?
        var lastSequence: UInt64 = 0

        while true {
            let recordOffset = offset
            let kind: RecordKind
            let payload: Range<Int>
            switch scanner.scan(at: offset) {
            case .end:
                guard let endSequence, let authorization else { throw Damage(offset: offset, problem: .truncated) }
                for (member, correlation) in members where locations[correlation] == nil {
                    throw Damage(
                        offset: offset,
                        problem: .inconsistent("member \(member.uuidString) names a correlation that is not stored"))
                }
                if let section = sections.last { try checkComplete(section, at: offset) }
                let indexes = sections.map {
                    TypeIndex(restoringEntries: $0.entries, additions: $0.additions, tombstones: $0.tombstones)
                }
                return StoreState(
                    appBundleIdentifier: appBundleIdentifier, authorization: authorization, indexes: indexes,
                    slots: slots, locations: locations, sequence: max(endSequence, lastSequence))
            case .tornTail(let at, let problem), .corrupt(let at, let problem):
                throw Damage(offset: at, problem: problem)
            case .record(let recordKind, let range, let next):
                kind = recordKind
                payload = range
                offset = next
            }
            guard endSequence == nil else {
                throw Damage(offset: recordOffset, problem: .inconsistent("records follow the end record"))
            }
            var reader = BinaryReader(bytes, range: payload)
            do {
                switch kind {
                case .header:
                    guard !sawHeader else { throw BinaryReader.Failure(reason: "a second header") }
                    let header = try StoreFileHeader(from: &reader)
                    guard header.appBundleIdentifier == appBundleIdentifier else {
                        throw FileStoreError.differentApp(
                            stored: header.appBundleIdentifier, configured: appBundleIdentifier)
                    }
                    guard header.generation == generation else {
                        throw Damage(
                            offset: recordOffset,
                            problem: .inconsistent("the header names generation \(header.generation)"))
                    }
                    sawHeader = true
                case .authorizationTable:
                    guard sawHeader, authorization == nil else { throw BinaryReader.Failure(reason: "out of order") }
                    authorization = try Self.decodeAuthorization(from: &reader, decoder: &decoder)
                case .typeSection:
                    guard authorization != nil else { throw BinaryReader.Failure(reason: "out of order") }
                    if let section = sections.last { try checkComplete(section, at: recordOffset) }
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
                throw Damage(offset: recordOffset, problem: .undecodable(failure.reason))
            }
        }
    }

    private func checkComplete(_ section: Section, at offset: Int) throws {
        guard section.additions.count == section.expectedAdditions,
            section.tombstones.count == section.expectedTombstones
        else {
            throw Damage(offset: offset, problem: .inconsistent("\(section.type)'s section is incomplete"))
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
