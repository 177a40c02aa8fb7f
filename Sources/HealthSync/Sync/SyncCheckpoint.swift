import Foundation

/// The points a ``SyncEngine`` run passes for each batch, in order, for crash tests: a test process kills a
/// child at one of them and checks that the next run loses and duplicates nothing.
///
/// Not part of the supported API: `@_spi(Testing) import HealthSync` to use it.
@_spi(Testing)
public enum SyncCheckpoint: Hashable, Sendable, CustomStringConvertible {
    /// The batch's changes were gathered; nothing is written yet.
    case gathered(UUID)
    /// The batch's pending batch file (its body and the state recording it) is `fsync`ed under its temp name; it
    /// is not yet renamed into place, so the batch is not pending.
    case written(UUID)
    /// The pending batch file is renamed into place; its folder is not yet `fsync`ed, so a power loss may still
    /// undo the rename.
    case renamed(UUID)
    /// The batch's body and the pending record are durable; the upload has not started.
    case persisted(UUID)
    /// The receiver answered 2xx; the anchors are not yet committed.
    case acknowledged(UUID)
    /// The anchors are committed in the run's state: saved (the state file) and the pending batch file removed at
    /// once after the run's last batch, else with the next batch's pending batch file.
    case committed(UUID)
    /// The state file holding this acknowledged batch's commit is `fsync`ed under its temp name (the end of a
    /// run); the batch is still pending on disk.
    case stateWritten(UUID)
    /// That state file is renamed into place; its folder is not yet `fsync`ed and the batch's pending file is
    /// still there.
    case stateRenamed(UUID)

    /// The point's name: `gathered`, `written`, `renamed`, `persisted`, `acknowledged`, `committed`,
    /// `state-written` or `state-renamed`.
    public var name: String {
        switch self {
        case .gathered: "gathered"
        case .written: "written"
        case .renamed: "renamed"
        case .persisted: "persisted"
        case .acknowledged: "acknowledged"
        case .committed: "committed"
        case .stateWritten: "state-written"
        case .stateRenamed: "state-renamed"
        }
    }

    /// The batch ID the point is about.
    public var batchID: UUID {
        switch self {
        case .gathered(let id), .written(let id), .renamed(let id), .persisted(let id), .acknowledged(let id),
            .committed(let id), .stateWritten(let id), .stateRenamed(let id):
            id
        }
    }

    /// `name batchID`, e.g. `persisted 6F1E…`.
    public var description: String { "\(name) \(batchID.uuidString)" }
}

extension SyncEngine {
    /// A copy of this engine that calls `hook` synchronously, on the run's task, as each batch passes each
    /// ``SyncCheckpoint``. The hook must not throw or call back into the engine; a crash test blocks in it (or
    /// exits) to stop the run exactly there.
    ///
    /// - Parameter hook: Called with each point.
    /// - Returns: The engine with the hook installed.
    @_spi(Testing)
    public func reportingCheckpoints(_ hook: @escaping @Sendable (SyncCheckpoint) -> Void) -> SyncEngine {
        var copy = self
        copy.checkpointHook = hook
        return copy
    }
}
