import ExampleSupport
import Foundation
import HealthFlow

/// A data folder's durable store, opened — the journal store for a folder that holds one, the disk-backed store
/// otherwise (``StoreOpening``). Which of the two it is decides how a whole change is settled, how opening is
/// described and warned about, and what closing closes; the commands see one store.
enum OpenedStore: Sendable {
    /// ``FileHealthStore``: journal and snapshots, every sample in memory.
    case journal(FileHealthStore)
    /// ``BackedHealthStore`` over ``SegmentedHealthStoreBackend`` (the backend kept to settle, describe and close
    /// it; copies of a backend share its state).
    case segments(BackedHealthStore<SegmentedHealthStoreBackend>, backend: SegmentedHealthStoreBackend)

    var store: any HealthChangeHistory {
        switch self {
        case .journal(let file): file
        case .segments(let backed, _): backed
        }
    }

    var format: DurableStoreFormat {
        switch self {
        case .journal: .journal
        case .segments: .segments
        }
    }

    /// Writes what the store holds in the form the next opening reads fastest: a snapshot of the journal store
    /// (read in large blocks), or every memtable of the disk-backed store flushed to its segments (no log to
    /// replay). Nothing is lost when it fails: the journal or the log keeps every change.
    func settle() throws {
        switch self {
        case .journal(let file): try file.snapshot()
        case .segments(_, let backend): try backend.checkpoint()
        }
    }

    /// What the settling step is called, for messages.
    var settling: String {
        switch self {
        case .journal: "snapshot"
        case .segments: "checkpoint"
        }
    }

    /// Where every change is kept until settled, for messages.
    var changeLog: String {
        switch self {
        case .journal: "the journal"
        case .segments: "the log"
        }
    }

    /// Turns the journal store's automatic snapshots on or off (each writes the whole store; an import takes one
    /// at its end instead). The disk-backed store takes none.
    func takeAutomaticSnapshots(_ on: Bool) {
        if case .journal(let file) = self { file.takesAutomaticSnapshots = on }
    }

    /// The damage the disk-backed store met answering a query, if any: it then answered as if nothing matched
    /// and refuses every later change, so what the command printed after it may miss samples. The journal store
    /// holds every sample in memory once opened and meets none.
    var failure: FileStoreError? {
        switch self {
        case .journal: nil
        case .segments(_, let backend): backend.failure
        }
    }

    /// One `warning:` line per thing opening dropped, removed, repaired, moved or restarted (none for a clean open).
    var warnings: [String] {
        switch self {
        case .journal(let file):
            let recovery = file.recovery
            return Self.warnings(
                torn: recovery.tornTail, removed: recovery.removedFiles, leftFrom: "an interrupted snapshot",
                repairs: recovery.repairs, movedAside: recovery.movedAside)
        case .segments(_, let backend):
            let recovery = backend.recovery
            var lines = Self.warnings(
                torn: recovery.tornTail, removed: recovery.removedFiles,
                leftFrom: "an interrupted flush, merge or rewrite", repairs: recovery.repairs,
                movedAside: recovery.movedAside)
            if let restarted = recovery.historyRestarted {
                let why =
                    recovery.repairs.isEmpty
                    ? "the store's history file was missing, or an interrupted repair left it to restart"
                    : "the repair lost changes the store's history counted"
                lines.append(
                    "warning: \(why); its history restarts after change \(restarted), so a sync that last sent a "
                        + "change up to it sends every sample again")
            }
            return lines
        }
    }

    /// "a new store", or what reopening read.
    var openingDescription: String {
        if DemoSeed.needsSeeding(store) { return "a new store" }
        switch self {
        case .journal(let file):
            let recovery = file.recovery
            var found =
                "reopened: snapshot \(recovery.snapshotGeneration.map(String.init) ?? "none"), "
                + "\(recovery.replayedRecords) journal records replayed"
            if let torn = recovery.tornTail { found += ", a torn last record dropped (\(torn.length) bytes)" }
            return found
        case .segments(_, let backend):
            let recovery = backend.recovery
            let changes = recovery.replayedChanges
            var found = "reopened: \(changes) log change\(changes == 1 ? "" : "s") replayed"
            if let torn = recovery.tornTail { found += ", a torn last change dropped (\(torn.length) bytes)" }
            return found
        }
    }

    func close() {
        switch self {
        case .journal(let file): file.close()
        case .segments(_, let backend): backend.close()
        }
    }

    /// The warnings both stores' openings share: the torn tail, each leftover removed (`leftFrom` says what left
    /// it), each repair and where each damaged file was kept.
    private static func warnings(
        torn: FileStoreRecovery.TornTail?, removed: [String], leftFrom: String, repairs: [FileStoreRepair],
        movedAside: [String]
    ) -> [String] {
        (torn.map { [warning(torn: $0)] } ?? [])
            + removed.map { "warning: removed \($0), left over from \(leftFrom)" }
            + repairs.map { "warning: repaired: \($0)" }
            + movedAside.map { "warning: the damaged file was kept as \($0)" }
    }

    private static func warning(torn: FileStoreRecovery.TornTail) -> String {
        "warning: dropped an unfinished last write (\(torn.length) bytes at \(torn.file):\(torn.offset)), "
            + "not acknowledged if the previous run stopped while writing it; its bytes were kept as "
            + (torn.keptAs ?? "(not kept)")
    }
}
