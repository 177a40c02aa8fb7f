import Foundation

/// Writes a snapshot file from a ``StoreImage``: to a temporary file, flushed, renamed into place, then the
/// directory flushed — so a snapshot file either is complete or does not exist.
///
/// ```text
/// snapshot      = magic "HFSNAP01" header authorizationTable section* series* end
/// authorizationTable = share:answers read:answers;  answers = count:varint (identifier:str allowed:u8)*
/// section       = typeSection additions* tombstones*
/// typeSection   = identifier:str additionCount:varint tombstoneCount:varint
/// additions     = (sequenceDelta:varint state:u8 …)*  up to the payload's end
///                 state 0: deleted since, uuid:16 — 1: live, sample — 2: live member, correlation:16 sample
/// tombstones    = (sequenceDelta:varint sample)*
/// series        = uuid:16 series                         (a live sample's, by SeriesKind in case order, then
///                                                         by UUID; the record kind is SeriesKind/snapshotRecord,
///                                                         the series HealthSampleSeries's)
/// end           = sequence:u64 sectionCount:varint liveCount:varint
/// ```
///
/// Records close at about 256 KiB (so a string table stays local and a payload never nears the frame's
/// 4 GiB limit); sequence deltas restart at 0 in each record. The additions and tombstones are the type index's own
/// logs, so a restored store answers anchored queries exactly as the one that wrote the snapshot.
struct SnapshotWriter {
    let fileSystem: any StoreFileSystem
    let directory: FileSystemPath
    /// A record is closed once its payload reaches this size (256 KiB).
    static let recordSize = 1 << 18
    /// Bytes buffered before a write.
    static let bufferSize = 1 << 20

    /// Writes snapshot `generation` and returns its size in bytes.
    @discardableResult
    func write(_ image: StoreImage, generation: UInt64) throws(FileStoreError) -> Int {
        let name = StoreLayout.snapshotName(generation)
        let temporary = directory.appending(StoreLayout.temporaryName(for: name))
        let file = try fileSystem.createFile(at: temporary)
        let size: Int
        do throws(FileStoreError) {
            var output = Output(file: file)
            try output.append(StoreLayout.snapshotMagic)
            try output.record(
                .header,
                StoreFileHeader(
                    generation: generation, appBundleIdentifier: image.appBundleIdentifier, storeID: image.storeID,
                    startSequence: image.sequence
                ).encoded())
            try output.record(.authorizationTable, Self.encodeAuthorization(image.authorization))
            var live = 0
            for (slot, section) in image.sections.enumerated() {
                var header = BinaryWriter()
                header.string(section.type.identifier)
                header.count(section.index.additions.count)
                header.count(section.index.tombstones.count)
                try output.record(.typeSection, header.bytes)
                var writer = BinaryWriter(capacity: Self.recordSize + (1 << 12))
                var previous: UInt64 = 0
                for addition in section.index.additions {
                    writer.varint(addition.sequence &- previous)
                    previous = addition.sequence
                    if let (entry, correlation) = image.liveEntry(
                        slot: slot, sequence: addition.sequence, uuid: addition.uuid)
                    {
                        live += 1
                        if let correlation {
                            writer.byte(2)
                            writer.uuid(correlation)
                        } else {
                            writer.byte(1)
                        }
                        SampleCodec.encode(entry.sample, into: &writer)
                    } else {
                        writer.byte(0)
                        writer.uuid(addition.uuid.uuid)
                    }
                    if writer.count >= Self.recordSize {
                        try output.record(.additions, writer.bytes)
                        writer = BinaryWriter(capacity: Self.recordSize + (1 << 12))
                        previous = 0
                    }
                }
                if writer.count > 0 { try output.record(.additions, writer.bytes) }
                writer = BinaryWriter(capacity: Self.recordSize + (1 << 12))
                previous = 0
                for tombstone in section.index.tombstones {
                    writer.varint(tombstone.sequence &- previous)
                    previous = tombstone.sequence
                    SampleCodec.encode(tombstone.sample, into: &writer)
                    if writer.count >= Self.recordSize {
                        try output.record(.tombstones, writer.bytes)
                        writer = BinaryWriter(capacity: Self.recordSize + (1 << 12))
                        previous = 0
                    }
                }
                if writer.count > 0 { try output.record(.tombstones, writer.bytes) }
            }
            let byKind = Dictionary(grouping: image.series, by: \.value.kind)
            for kind in SeriesKind.allCases {
                for (uuid, series) in (byKind[kind] ?? []).sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                    var writer = BinaryWriter(capacity: 16 + series.encodedSize)
                    writer.uuid(uuid)
                    series.encode(into: &writer)
                    try output.record(kind.snapshotRecord, writer.bytes)
                }
            }
            var end = BinaryWriter()
            end.uint64(image.sequence)
            end.count(image.sections.count)
            end.count(live)
            try output.record(.end, end.bytes)
            try output.flush()
            try file.sync()
            file.close()
            try fileSystem.rename(temporary, to: directory.appending(name))
            size = output.offset
        } catch {
            file.close()
            try? fileSystem.removeFile(at: temporary)
            throw error
        }
        try fileSystem.syncDirectory(at: directory)
        return size
    }

    static func encodeAuthorization(_ table: AuthorizationTable) -> [UInt8] {
        var writer = BinaryWriter()
        for answers in [table.share, table.read] {
            writer.count(answers.count)
            for (type, allowed) in answers.sorted(by: { $0.key.identifier < $1.key.identifier }) {
                writer.string(type.identifier)
                writer.byte(allowed ? 1 : 0)
            }
        }
        return writer.bytes
    }

    /// Buffered, positioned writes to the temporary file.
    private struct Output {
        let file: any StoreFile
        var buffer: [UInt8] = []
        var offset = 0

        init(file: any StoreFile) {
            self.file = file
            buffer.reserveCapacity(SnapshotWriter.bufferSize + (1 << 16))
        }

        mutating func append(_ bytes: [UInt8]) throws(FileStoreError) {
            buffer.append(contentsOf: bytes)
            if buffer.count >= SnapshotWriter.bufferSize { try flush() }
        }

        mutating func record(_ kind: RecordKind, _ payload: [UInt8]) throws(FileStoreError) {
            RecordFrame.append(kind: kind, payload: payload, to: &buffer)
            if buffer.count >= SnapshotWriter.bufferSize { try flush() }
        }

        mutating func flush() throws(FileStoreError) {
            guard !buffer.isEmpty else { return }
            try file.write(buffer, at: offset)
            offset += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Removes the journals and snapshots older than `generation` once snapshot `generation` is in place: by the
    /// names the store generates for them (``StoreLayout/classify(_:)``), never another file. Best effort: a file left behind is removed the next time the store opens.
    func removeCovered(before generation: UInt64) {
        guard let names = try? fileSystem.contentsOfDirectory(at: directory) else { return }
        var removed = false
        for name in names.sorted() {
            let covered: String
            switch StoreLayout.classify(name) {
            case .journal(let older) where older < generation: covered = StoreLayout.journalName(older)
            case .snapshot(let older) where older < generation: covered = StoreLayout.snapshotName(older)
            default: continue
            }
            removed = (try? fileSystem.removeFile(at: directory.appending(covered))) != nil || removed
        }
        if removed { try? fileSystem.syncDirectory(at: directory) }
    }
}
