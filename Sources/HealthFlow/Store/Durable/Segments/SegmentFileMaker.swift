/// Makes one segment file atomically: it is written under ``SegmentName/temporaryFileName``, flushed, opened for
/// reading (its footer and index checked), renamed to ``SegmentName/fileName`` and the directory flushed. Until
/// the rename no file has the segment's name, so a failure or crash before it leaves at most a temporary file
/// (which the next opening of the type's storage removes), never a segment name on a half-written file. The
/// writer's scratch file (``SegmentName/scratchFileName``), made only when its look-up columns pass `runLength`
/// entries, is removed once the segment is written, before the rename (a failure to remove it fails the make), or
/// as far as possible after a failure.
struct SegmentFileMaker {
    let directory: FileSystemPath
    let fileSystem: any StoreFileSystem
    /// The writer's ``SegmentWriter`` run length: look-up column entries held in memory before a spill.
    var runLength = SegmentWriter.standardRunLength

    /// A segment now in place under its name.
    struct Made {
        let reader: SegmentReader
        /// Set when the directory flush after the rename failed: the segment is in place and readable, but whether
        /// its name survives a crash is unknown.
        let directoryFlushFailure: FileStoreError?
        /// The writer's ``SegmentWriter/peakColumnBytes``.
        let peakColumnBytes: Int
    }

    /// Writes segment `name` from the rows `fill` appends (in `(start, sequence)` order, about `expectedRows`).
    /// - Throws: What `fill` or the file system threw, after removing the temporary file (as far as possible);
    ///   no file has `name`'s file name then.
    func make(
        _ name: SegmentName, expectedRows: Int,
        fill: (inout SegmentWriter) throws(FileStoreError) -> Void
    ) throws(FileStoreError) -> Made {
        let made = try makeUnlessGivenUp(name, expectedRows: expectedRows) {
            (writer: inout SegmentWriter) throws(FileStoreError) -> Bool in
            try fill(&writer)
            return true
        }
        guard let made else { preconditionFailure("a segment whose rows were all appended was abandoned") }
        return made
    }

    /// Writes segment `name` as ``make(_:expectedRows:fill:)`` does, unless `fillOrGiveUp` gives it up by
    /// returning `false`: the temporary file (and any scratch file) is then removed and `nil` returned, nothing else
    /// changed.
    /// - Throws: As ``make(_:expectedRows:fill:)``.
    func makeUnlessGivenUp(
        _ name: SegmentName, expectedRows: Int,
        fillOrGiveUp fill: (inout SegmentWriter) throws(FileStoreError) -> Bool
    ) throws(FileStoreError) -> Made? {
        let temporary = directory.appending(name.temporaryFileName)
        let scratchPath = directory.appending(name.scratchFileName)
        let fileSystem = fileSystem
        let scratchMade = ScratchFlag()
        let scratch = SegmentScratch(
            create: { () throws(FileStoreError) in
                let file = try fileSystem.createFile(at: scratchPath)
                scratchMade.isSet = true
                return file
            },
            openForReading: { () throws(FileStoreError) in try fileSystem.openFileForReading(at: scratchPath) })
        let removeLeftovers = {
            try? fileSystem.removeFile(at: temporary)
            if scratchMade.isSet { try? fileSystem.removeFile(at: scratchPath) }
        }
        var made: (reader: SegmentReader, peakColumnBytes: Int)?
        do {
            let file = try fileSystem.createFile(at: temporary)
            defer { file.close() }
            var writer = try SegmentWriter(
                file: file, type: name.type, expectedRows: expectedRows, scratch: scratch, runLength: runLength)
            defer { writer.closeScratch() }
            if try fill(&writer) {
                _ = try writer.finish()
                if scratchMade.isSet { try fileSystem.removeFile(at: scratchPath) }
                let reader = try SegmentReader(
                    file: try fileSystem.openFileForReading(at: temporary), name: name.fileName)
                try fileSystem.rename(temporary, to: directory.appending(name.fileName))
                made = (reader, writer.peakColumnBytes)
            }
        } catch {
            removeLeftovers()
            throw error
        }
        guard let (reader, peakColumnBytes) = made else {
            removeLeftovers()
            return nil
        }
        do {
            try fileSystem.syncDirectory(at: directory)
            return Made(reader: reader, directoryFlushFailure: nil, peakColumnBytes: peakColumnBytes)
        } catch {
            return Made(reader: reader, directoryFlushFailure: error, peakColumnBytes: peakColumnBytes)
        }
    }

    /// Appends `row` to `writer`, turning a refusal (a row out of order or of another type) into damage of the
    /// segment being made: rows read from segments come out of order only when a segment says what it does not
    /// hold.
    static func append(
        _ row: SegmentRow, to writer: inout SegmentWriter, making name: SegmentName, indexed: Bool = true
    ) throws(FileStoreError) {
        do {
            try writer.append(row, indexed: indexed)
        } catch {
            throw failure(error, making: name)
        }
    }

    /// What a writer's failure making segment `name` from rows read from segments means: its file error, or a
    /// refusal turned into damage of the segment being made.
    static func failure(_ error: SegmentWriterFailure, making name: SegmentName) -> FileStoreError {
        switch error {
        case .file(let failure): failure
        case .refused(let refusal):
            .corruptFile(
                name: name.temporaryFileName, offset: 0,
                problem: .inconsistent("the rows to write are refused (\(refusal)): a segment read is out of order"))
        }
    }
}

/// Whether a scratch file was made, set from the writer's closure.
private final class ScratchFlag {
    var isSet = false
}
