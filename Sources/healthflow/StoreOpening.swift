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
/// byte kept. With `--repair` the store keeps what is readable, each loss printed as a warning and the damaged
/// files named where they were kept; the disk-backed store repairs damaged segments only (damage in its log, its
/// history or its permission answers still stops the command, and the hint says so).
enum StoreOpening {
    static func open(_ directory: FileSystemPath, repair: Bool) throws(FileStoreError) -> OpenedStore {
        switch try DurableStoreFormat.of(directoryPath: directory) {
        case .journal:
            return .journal(
                try FileHealthStore(
                    directoryPath: directory, configuration: ExampleContext.app,
                    options: FileStoreOptions(recovery: repair ? .repair : .tolerateTornTail)))
        case .segments, nil:
            let backend = try SegmentedHealthStoreBackend(
                directory: directory, recovery: repair ? .repair : .tolerateTornTail)
            return .segments(
                BackedHealthStore(backend: backend, configuration: ExampleContext.app), backend: backend)
        }
    }

    /// What to try next after `error` from the store in `directory`, when damage stopped it: that nothing was
    /// changed, what a repair would keep and lose (assessed without changing anything), and how to ask for it —
    /// or, for damage the disk-backed store cannot repair (a log, its history, the permission answers), that.
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
        var lines = ["nothing was changed"]
        do throws(FileStoreError) {
            let repairs: [FileStoreRepair]
            if format == .journal {
                let assessment = try FileHealthStore.assessDamage(
                    directoryPath: directory, configuration: ExampleContext.app)
                repairs = assessment.repairs
                lines.append(
                    "a repair would keep \(assessment.keptObjects) samples and lose at least "
                        + "\(assessment.samplesLost) (\(places(repairs.count))):")
            } else {
                repairs = try SegmentedHealthStoreBackend.assessDamage(directory: directory)
                guard !repairs.isEmpty else {
                    return lines + [
                        "the damaged file is kept as it is; this store (\(DurableStoreFormat.segments)) repairs "
                            + "damaged segments only: move the folder aside and import the export again, or restore "
                            + "a copy of the folder"
                    ]
                }
                lines.append(
                    "a repair would lose at least \(repairs.reduce(0) { $0 + $1.samplesLost }) samples "
                        + "(\(places(repairs.count))):")
            }
            lines += repairs.map { "  \($0)" }
        } catch {
            lines.append("what a repair would keep could not be assessed: \(error)")
        }
        lines.append(
            "run again with --repair to keep what is readable and move the damaged files into the store's damaged/ "
                + "folder")
        return lines
    }

    private static func places(_ count: Int) -> String {
        count == 1 ? "1 damaged place" : "\(count) damaged places"
    }
}
