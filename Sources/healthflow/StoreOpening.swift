import ExampleSupport
import Foundation
import HealthFlow

/// How the command opens its durable store and what it says when opening fails: one rule for `import`, `demo`
/// and `sync`.
///
/// A folder keeps the format it was made in (``DurableStoreFormat``, told by its file names): one holding the
/// journal store opens as ``FileHealthStore``; any other — a new folder first of all — as the disk-backed store
/// (``SegmentedHealthStoreBackend``), whose memory stays bounded whatever an import puts in it.
///
/// A torn last change (an interrupted write, never acknowledged) is dropped, its bytes kept in `damaged/`, and
/// reported as a warning (``OpenedStore/warnings``). Damage stops the command with the error and a hint, every
/// byte kept. With `--repair` the journal store keeps what is readable, each loss printed as a warning and the
/// damaged files named where they were moved; the disk-backed store has no repair: it still stops, and says so.
enum StoreOpening {
    static func open(_ directory: FileSystemPath, repair: Bool) throws(FileStoreError) -> OpenedStore {
        switch try DurableStoreFormat.of(directoryPath: directory) {
        case .journal:
            return .journal(
                try FileHealthStore(
                    directoryPath: directory, configuration: ExampleContext.app,
                    options: FileStoreOptions(recovery: repair ? .repair : .tolerateTornTail)))
        case .segments, nil:
            let backend = try SegmentedHealthStoreBackend(directory: directory)
            return .segments(
                BackedHealthStore(backend: backend, configuration: ExampleContext.app), backend: backend)
        }
    }

    /// What to try next after `error` opening the store in `directory`, when damage stopped it: that nothing was
    /// changed, and for the journal store what a repair would keep and lose (assessed without changing anything)
    /// and how to ask for it.
    static func hint(for error: FileStoreError, directory: FileSystemPath) -> [String] {
        switch error {
        case .corruptFile, .missingJournal: break
        default: return []
        }
        let format: DurableStoreFormat?
        do throws(FileStoreError) {
            format = try DurableStoreFormat.of(directoryPath: directory)
        } catch {
            return ["nothing was changed"]
        }
        guard format == .journal else {
            return [
                "nothing was changed: the damaged file is kept as it is",
                "this store (\(DurableStoreFormat.segments)) has no repair: move the folder aside and import the "
                    + "export again, or restore a copy of the folder",
            ]
        }
        var lines = ["nothing was changed"]
        do throws(FileStoreError) {
            let assessment = try FileHealthStore.assessDamage(
                directoryPath: directory, configuration: ExampleContext.app)
            let places =
                assessment.repairs.count == 1 ? "1 damaged place" : "\(assessment.repairs.count) damaged places"
            lines.append(
                "a repair would keep \(assessment.keptObjects) samples and lose at least \(assessment.samplesLost) "
                    + "(\(places)):")
            lines += assessment.repairs.map { "  \($0)" }
        } catch {
            lines.append("what a repair would keep could not be assessed: \(error)")
        }
        lines.append(
            "run again with --repair to keep what is readable and move the damaged files into the store's damaged/ "
                + "folder")
        return lines
    }
}
