import Foundation

/// Where the identity of the state being loaded came from: a file's header, or files older than identities.
enum StoreIdentitySource {
    case recorded
    case legacy
}

/// Replays one journal file into a state, change by change.
///
/// A change is one record, or several written together whose all but last are flagged "more follows"
/// (``RecordFrame/moreFollows``); the parts are merged and applied as one. A change whose last record is missing
/// at the end of the last journal was never acknowledged: it is a torn tail, dropped and reported. Anything else
/// wrong is damage: in ``FileStoreRecoveryMode/tolerateTornTail`` it throws
/// ``FileStoreError/corruptFile(name:offset:problem:)`` at once; in ``FileStoreRecoveryMode/repair`` it is
/// recorded as a ``FileStoreRepair`` and replay goes on at the next intact record, keeping every change that
/// still applies (the parts of a change cut by damage included).
struct JournalReplay {
    let name: String
    let bytes: [UInt8]
    let generation: UInt64
    let appBundleIdentifier: String
    /// Whether this is the newest journal (the only one that may end in a torn tail).
    let isLast: Bool
    let repairing: Bool

    struct Outcome {
        /// Changes applied.
        var changes = 0
        /// Where the intact part ends (the journal is cut back to here before appending).
        var length = 0
        var torn: FileStoreRecovery.TornTail?
        var repairs: [FileStoreRepair] = []
    }

    /// The change being read: its parts so far and where its first record starts.
    private struct Pending {
        var start: Int
        var parts: [StoreMutation]
    }

    func run(into state: inout StoreState, identity: inout StoreIdentitySource?) throws(FileStoreError) -> Outcome {
        var outcome = Outcome()
        let magic = StoreLayout.journalMagic
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            try damage(at: 0, length: bytes.count, .notAStoreFile, into: &outcome)
            outcome.length = bytes.count
            return outcome
        }
        let scanner = FrameScanner(bytes: bytes)
        var decoder = SampleDecoder()
        var offset = magic.count
        var sawHeader = false
        var pending: Pending?
        while true {
            switch scanner.scan(at: offset) {
            case .end:
                if !sawHeader { try damage(at: offset, length: 0, .truncated, into: &outcome) }
                if let cut = pending {
                    // The change's last record never arrived.
                    if isLast {
                        outcome.torn = FileStoreRecovery.TornTail(
                            file: name, offset: cut.start, length: bytes.count - cut.start, problem: .truncated)
                        outcome.length = cut.start
                        return outcome
                    }
                    try damage(at: cut.start, length: offset - cut.start, .truncated, into: &outcome)
                    keepParts(of: cut, into: &state, outcome: &outcome)
                }
                outcome.length = offset
                return outcome
            case .tornTail(let at, let problem):
                // A journal is renamed into place with its header flushed: a damaged header is corruption.
                if isLast, sawHeader {
                    let start = pending?.start ?? at
                    outcome.torn = FileStoreRecovery.TornTail(
                        file: name, offset: start, length: bytes.count - start, problem: problem)
                    outcome.length = start
                    return outcome
                }
                try damage(at: at, length: bytes.count - at, problem, into: &outcome)
                if let cut = pending { keepParts(of: cut, into: &state, outcome: &outcome) }
                outcome.length = bytes.count
                return outcome
            case .corrupt(let at, let problem):
                guard repairing else { throw .corruptFile(name: name, offset: at, problem: problem) }
                let next = scanner.nextRecord(after: at) ?? bytes.count
                // A change is known lost when damage cuts the one being read, or lies inside a record whose header
                // is intact (past the file's header record): that record began a change.
                let lost = pending != nil || (sawHeader && Self.liesInsideARecord(problem))
                try damage(at: at, length: next - at, problem, changes: lost ? 1 : 0, into: &outcome)
                if let cut = pending { keepParts(of: cut, into: &state, outcome: &outcome) }
                pending = nil
                sawHeader = true
                offset = next
            case .record(let kind, let payload, let next, let continues):
                var reader = BinaryReader(bytes, range: payload)
                if !sawHeader {
                    sawHeader = true
                    if kind == .header {
                        try readHeader(from: &reader, at: offset, state: &state, identity: &identity, outcome: &outcome)
                        offset = next
                        continue
                    }
                    try damage(at: offset, length: 0, .undecodable("the journal has no header"), into: &outcome)
                }
                let part: StoreMutation
                do throws(BinaryReader.Failure) {
                    part = try MutationCodec.decode(kind: kind, from: &reader, samples: &decoder)
                } catch {
                    try damage(
                        at: offset, length: next - offset, .undecodable(error.reason), changes: 1, into: &outcome)
                    if let cut = pending { keepParts(of: cut, into: &state, outcome: &outcome) }
                    pending = nil
                    offset = next
                    continue
                }
                var change = pending ?? Pending(start: offset, parts: [])
                change.parts.append(part)
                offset = next
                if continues {
                    pending = change
                    continue
                }
                pending = nil
                try apply(change, to: &state, outcome: &outcome)
            }
        }
    }

    /// Applies a complete change, or reports why it does not apply.
    private func apply(_ change: Pending, to state: inout StoreState, outcome: inout Outcome) throws(FileStoreError) {
        guard let mutation = MutationCodec.merge(change.parts) else {
            try damage(
                at: change.start, length: 0, .inconsistent("the records of one change are of different kinds"),
                changes: 1, samples: change.parts.reduce(0) { $0 + Self.size(of: $1) }, into: &outcome)
            return
        }
        if let problem = state.replayProblem(mutation) {
            try damage(
                at: change.start, length: 0, .inconsistent(problem), changes: 1, samples: Self.size(of: mutation),
                into: &outcome)
            return
        }
        _ = state.apply(mutation)
        outcome.changes += 1
    }

    /// In a repair: applies the parts of a change read before damage cut it, when they still apply.
    private func keepParts(of change: Pending, into state: inout StoreState, outcome: inout Outcome) {
        guard let mutation = MutationCodec.merge(change.parts), state.replayProblem(mutation) == nil else { return }
        _ = state.apply(mutation)
    }

    private func readHeader(
        from reader: inout BinaryReader, at offset: Int, state: inout StoreState,
        identity: inout StoreIdentitySource?, outcome: inout Outcome
    ) throws(FileStoreError) {
        let header: StoreFileHeader
        do throws(BinaryReader.Failure) {
            header = try StoreFileHeader(from: &reader)
        } catch {
            try damage(at: offset, length: 0, .undecodable(error.reason), into: &outcome)
            return
        }
        guard header.appBundleIdentifier == appBundleIdentifier else {
            throw .differentApp(stored: header.appBundleIdentifier, configured: appBundleIdentifier)
        }
        guard header.generation == generation else {
            try damage(
                at: offset, length: 0, .inconsistent("the header names generation \(header.generation)"),
                into: &outcome)
            return
        }
        switch (identity, header.storeID) {
        case (nil, let recorded?), (.legacy, let recorded?):
            // The first file, or the first journal written after files without an identity: its identity holds.
            state.storeID = recorded
            identity = .recorded
        case (nil, nil):
            identity = .legacy
        case (.legacy, nil):
            break
        case (.recorded, let recorded):
            guard recorded == state.storeID else {
                let other = recorded?.uuidString ?? "(none)"
                try damage(
                    at: offset, length: 0,
                    .inconsistent("the journal belongs to store \(other), not \(state.storeID.uuidString)"),
                    into: &outcome)
                return
            }
        }
        if let start = header.startSequence, start != state.sequence {
            // Each object saved or deleted took one number, so a journal starting past where the files before it
            // end lost that many, in at least one change.
            let gap = start > state.sequence ? Int(clamping: start - state.sequence) : 0
            try damage(
                at: offset, length: 0,
                .inconsistent("the journal starts after change \(start), the files before it end at \(state.sequence)"),
                changes: gap > 0 ? 1 : 0, samples: gap, into: &outcome)
        }
    }

    /// Damage: thrown at once, unless repairing — then recorded.
    private func damage(
        at offset: Int, length: Int, _ problem: FileStoreError.Damage, changes: Int = 0, samples: Int = 0,
        into outcome: inout Outcome
    ) throws(FileStoreError) {
        guard repairing else { throw .corruptFile(name: name, offset: offset, problem: problem) }
        outcome.repairs.append(
            FileStoreRepair(
                file: name, offset: offset, skippedBytes: length, problem: problem, changesLost: changes,
                samplesLost: samples))
    }

    /// Whether `problem` was found inside a record whose header checksum matched — a record was written there —
    /// rather than in bytes that may never have been one (a damaged header, garbage).
    private static func liesInsideARecord(_ problem: FileStoreError.Damage) -> Bool {
        switch problem {
        case .payloadChecksumMismatch, .unsupportedVersion, .undecodable: true
        default: false
        }
    }

    /// Samples inserted or deleted by a change.
    private static func size(of mutation: StoreMutation) -> Int {
        switch mutation {
        case .insert(let samples): samples.count
        case .delete(let uuids): uuids.count
        case .insertSeries(let entries): entries.count
        case .addSeries: 0
        case .authorization: 0
        }
    }
}
