import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One sync run at a time per state file, whichever engine or process starts it: two overlapping runs would
/// both send from the same anchors (every change of the overlap twice, under different batch IDs) and save
/// over each other's state.
///
/// The lock is an exclusive `flock` on `<state file name>.lock` beside the state file (created 0600 and left
/// in place, empty: removing it would let a run lock a file the next run no longer sees), held from the run's
/// start until ``release()`` or the lock's end. `flock` belongs to the open file, so two engines of one process
/// exclude each other as two processes do, and a process that dies releases it.
final class SyncRunLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock of the state file at `statePath`, waiting out a lock held for a moment (up to 1 s; a
    /// child process being started elsewhere in this process can hold a released lock that long). Blocks the
    /// calling thread while it waits: call it off the concurrency pool.
    /// - Throws: ``SyncEngineError/alreadyRunning(lock:)`` when another run holds it, or
    ///   ``SyncEngineError/stateFolder(path:reason:)`` when the lock file cannot be opened or locked.
    static func acquire(forStateFile statePath: FileSystemPath) throws(SyncEngineError) -> SyncRunLock {
        let lockPath = path(forStateFile: statePath)
        let locked: Int32?
        do throws(PathCallFailure) {
            locked = try lockPath.lockExclusively(patience: .seconds(1)) { usleep(10_000) }
        } catch {
            throw .stateFolder(
                path: lockPath.description, reason: "\(error.operation) of the run lock failed (errno \(error.code))")
        }
        guard let descriptor = locked else { throw .alreadyRunning(lock: lockPath.description) }
        return SyncRunLock(descriptor: descriptor)
    }

    /// `<state file name>.lock`, in the state file's folder.
    static func path(forStateFile statePath: FileSystemPath) -> FileSystemPath {
        statePath.parent.appending(FileSystemPath(unchecked: statePath.lastComponent.bytes + Array(".lock".utf8)))
    }

    deinit {
        close(descriptor)  // closing the only descriptor of the open file releases its flock
    }
}
