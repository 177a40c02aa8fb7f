/// The repair of one damaged segment (``FileStoreRecoveryMode/repair``): what of it reads is written again under
/// its name, and the damaged file is kept in `damaged/`, never deleted.
///
/// - A segment whose footer or index does not read has no row that can be told apart: it is moved into
///   `damaged/` whole, and how many rows it held is unknown.
/// - Otherwise every block is read and checked. A damaged row block loses its rows (counted from the index). A
///   row whose series block is damaged is lost with it: the sample without the series it was saved with would
///   answer a series query with nothing. A damaged UUID or sequence block loses nothing (both are written again
///   from the rows). The rows that read are written again in their order, each UUID's newest row indexed (as a
///   flush or merge writes them), once the damaged file's bytes are copied into `damaged/`; the new segment
///   replaces it atomically (``SegmentFileMaker``), so a crash leaves the damaged segment in place (and its copy).
///
/// A lost row may have been a newer version of a sample, or a deletion, hiding an older version in another
/// segment: that version is then the sample's newest again. Each lost row counts as a change and a sample lost.
struct SegmentSalvage {
    let name: SegmentName
    let directory: FileSystemPath
    let fileSystem: any StoreFileSystem

    /// The damage a full read of the segment found.
    struct Finding {
        /// The report: the first damaged place, the bytes skipped, the rows lost.
        let repair: FileStoreRepair
        /// The numbers of the rows lost, or `nil` when the segment does not open (all of them, how many unknown).
        let lostRows: Set<Int>?
    }

    /// Reads the whole segment and checks every block, changing nothing.
    /// - Returns: What is damaged, or `nil` when nothing is.
    /// - Throws: The file system's error.
    /// - Complexity: O(segment size): every block is read once; memory holds one decoded row block.
    func assess() throws(FileStoreError) -> Finding? {
        let path = directory.appending(name.fileName)
        let file = try fileSystem.openFileForReading(at: path)
        let reader: SegmentReader
        do {
            reader = try SegmentReader(file: file, name: name.fileName)
        } catch {
            defer { file.close() }
            guard case .corruptFile(_, let offset, let problem) = error else { throw error }
            let size = try file.size()
            return Finding(
                repair: FileStoreRepair(
                    file: name.fileName, offset: offset, skippedBytes: size, problem: problem, changesLost: 0,
                    samplesLost: 0),
                lostRows: nil)
        }
        var damage: [(extent: SegmentBlockExtent, problem: FileStoreError.Damage)] = []
        var lost = Set<Int>()
        for (number, block) in reader.rowBlocks.enumerated() {
            let rows: [SegmentRow]
            do {
                rows = try reader.rows(ofBlock: number)
            } catch {
                guard case .corruptFile(_, _, let problem) = error else { throw error }
                damage.append((block.extent, problem))
                lost.formUnion(block.firstRow..<(block.firstRow + block.rowCount))
                continue
            }
            for (position, row) in rows.enumerated() {
                guard case .stored(_, let extent) = row.series else { continue }
                do {
                    _ = try reader.seriesBytes(at: extent)
                } catch {
                    guard case .corruptFile(_, _, let problem) = error else { throw error }
                    damage.append((extent, problem))
                    lost.insert(block.firstRow + position)
                }
            }
        }
        damage += try reader.lookupBlockDamage()
        guard let first = damage.min(by: { $0.extent.offset < $1.extent.offset }) else { return nil }
        return Finding(
            repair: FileStoreRepair(
                file: name.fileName, offset: first.extent.offset,
                skippedBytes: damage.reduce(0) { $0 + $1.extent.length }, problem: first.problem,
                changesLost: lost.count, samplesLost: lost.count),
            lostRows: lost)
    }

    /// Repairs what `finding` (this segment's ``assess()``) found.
    /// - Returns: Where the damaged file was kept, relative to `directory`.
    /// - Throws: The file system's error, or damage the assessment did not find (the file changed since): the
    ///   segment is then as it was, or replaced whole with the rows that read (its copy kept either way).
    func repair(_ finding: Finding) throws(FileStoreError) -> String {
        guard let lost = finding.lostRows else {
            return try DamagedCopy.moveAside(name.fileName, in: directory, fileSystem: fileSystem)
        }
        let kept = try DamagedCopy.copy(name.fileName, in: directory, fileSystem: fileSystem)
        let reader = try SegmentReader(
            file: try fileSystem.openFileForReading(at: directory.appending(name.fileName)), name: name.fileName)
        var newest: [UUIDKey: UInt64] = [:]
        for number in reader.rowBlocks.indices where !Self.isLost(reader.rowBlocks[number], lost) {
            let first = reader.rowBlocks[number].firstRow
            let rows = try reader.rows(ofBlock: number)
            for (position, row) in rows.enumerated() where !lost.contains(first + position) {
                let key = UUIDKey(row.entry.sample.uuid)
                newest[key] = max(newest[key] ?? 0, row.entry.sequence)
            }
        }
        let name = name
        let made = try SegmentFileMaker(directory: directory, fileSystem: fileSystem).make(
            name, expectedRows: reader.rowCount - lost.count
        ) { (writer: inout SegmentWriter) throws(FileStoreError) in
            for number in reader.rowBlocks.indices where !Self.isLost(reader.rowBlocks[number], lost) {
                let block = reader.rowBlocks[number]
                for (position, row) in try reader.rows(ofBlock: number).enumerated()
                where !lost.contains(block.firstRow + position) {
                    let isNewest = newest[UUIDKey(row.entry.sample.uuid)] == row.entry.sequence
                    try SegmentFileMaker.append(row, to: &writer, making: name, indexed: isNewest)
                }
            }
        }
        if let failure = made.directoryFlushFailure { throw failure }
        return kept
    }

    /// Whether every row of `block` is lost (a damaged row block).
    private static func isLost(_ block: SegmentRowBlock, _ lost: Set<Int>) -> Bool {
        (block.firstRow..<(block.firstRow + block.rowCount)).allSatisfy(lost.contains)
    }
}
