import ExampleSupport
import Foundation
import HealthFlow

/// How the command opens its durable store and words what opening found: one rule for `demo` and `sync`.
///
/// A torn last record (an interrupted write, never acknowledged) is dropped, its bytes kept in `damaged/`, and
/// reported as a warning, and so is each leftover file of an interrupted snapshot the store removed (named; only
/// its own files). Damage stops the command with the error and a hint, every byte kept, unless `--repair` was
/// given: then the store keeps what is readable, each loss is printed as a warning and the damaged files are named
/// where they were moved.
enum StoreOpening {
    static func open(_ directory: FileSystemPath, repair: Bool) throws(FileStoreError) -> FileHealthStore {
        try FileHealthStore(
            directoryPath: directory, configuration: ExampleContext.app,
            options: FileStoreOptions(recovery: repair ? .repair : .tolerateTornTail))
    }

    /// One `warning:` line per thing opening dropped, removed, repaired or moved (none for a clean open).
    static func warnings(_ recovery: FileStoreRecovery) -> [String] {
        var lines: [String] = []
        if let torn = recovery.tornTail {
            lines.append(
                "warning: dropped an unfinished last write (\(torn.length) bytes at \(torn.file):\(torn.offset)), "
                    + "not acknowledged if the previous run stopped while writing it; its bytes were kept as "
                    + (torn.keptAs ?? "(not kept)"))
        }
        for name in recovery.removedFiles {
            lines.append("warning: removed \(name), left over from an interrupted snapshot")
        }
        for repair in recovery.repairs { lines.append("warning: repaired: \(repair)") }
        for moved in recovery.movedAside { lines.append("warning: the damaged file was kept as \(moved)") }
        return lines
    }

    /// What to try next after `error` opening the store in `directory`, when a repair could help: what a repair
    /// would keep and lose (assessed without changing anything), and how to ask for it.
    static func hint(for error: FileStoreError, directory: FileSystemPath) -> [String] {
        switch error {
        case .corruptFile, .missingJournal: break
        default: return []
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
