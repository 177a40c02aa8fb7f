import Dispatch
import FlowKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One long-lived thread that runs blocking work (file calls, `fsync`s, builds) handed to it, one job at a time in
/// the order given, off the Swift concurrency pool and the Dispatch global queues, which have as many threads as
/// cores, any of them possibly blocked by someone else.
///
/// The thread is started by the first job and kept for the jobs after it: a run of n batches starts one thread per
/// worker, not one per batch. ``stop()`` lets it finish the jobs already given and end, and so does its idle timeout
/// without a job, when it has one (a backstop for a worker nobody stops); a job given after that starts a thread
/// again. ``AtomicFile/fsyncObserver`` is carried over to each job from the task that gives it.
/// - Note: `Sendable`: its queue of jobs and its thread's state are kept in a `LockedState`; the thread waits on a
///   semaphore signalled once per job and once per ``stop()``.
final class SyncWorker: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// Whether a thread is serving the queue (started and not yet ended).
        var running = false
        var threadsStarted = 0
    }

    private let state = LockedState(State())
    private let signal = DispatchSemaphore(value: 0)
    private let name: String
    private let idleTimeout: DispatchTimeInterval?

    /// - Parameters:
    ///   - name: The thread's name, as debuggers, `ps -L` and `/proc/<pid>/task/<tid>/comm` show it (its first 15
    ///     bytes on Linux).
    ///   - idleTimeout: How long the thread waits for a job before it ends; `nil` waits until ``stop()``.
    init(name: String, idleTimeout: DispatchTimeInterval? = nil) {
        self.name = name
        self.idleTimeout = idleTimeout
    }

    /// How many threads this worker has started so far: 1 for any number of jobs given before ``stop()``.
    var threadsStarted: Int { state.withLock { $0.threadsStarted } }

    /// Runs `work` on the worker's thread, after the jobs given before it, and gives its result.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let observer = AtomicFile.fsyncObserver
        return try await withCheckedThrowingContinuation { continuation in
            enqueue {
                continuation.resume(
                    with: Result {
                        guard let observer else { return try work() }
                        return try AtomicFile.$fsyncObserver.withValue(observer) { try work() }
                    })
            }
        }
    }

    /// Lets the thread end once the jobs given so far are done; the worker stays usable.
    func stop() {
        signal.signal()
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard !state.running else { return false }
            state.running = true
            state.threadsStarted += 1
            return true
        }
        if start {
            let thread = Thread { [self] in serve() }
            thread.name = name
            thread.start()
        }
        signal.signal()
    }

    /// The thread's loop: one signal per job or ``stop()``; a signal (or the idle timeout) that finds no job left
    /// ends the thread. A job taken on a timeout leaves its signal behind, which at worst ends the thread early:
    /// the thread ends only with the queue empty, and the next job starts another.
    private func serve() {
        Self.nameCurrentThread(name)
        while true {
            if let idleTimeout {
                _ = signal.wait(timeout: .now() + idleTimeout)
            } else {
                signal.wait()
            }
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                guard !state.jobs.isEmpty else {
                    state.running = false
                    return nil
                }
                return state.jobs.removeFirst()
            }
            guard let job else { return }
            job()
        }
    }
}

extension SyncWorker {
    /// Names the calling thread for the system (`Thread.name` set before `start()` stays Foundation's own on Linux):
    /// on Linux its first 15 bytes, cut at a character boundary, written to `/proc/thread-self/comm` (what
    /// `pthread_setname_np` does, which Swift's Glibc module does not export); nothing happens when that fails.
    static func nameCurrentThread(_ name: String) {
        #if canImport(Darwin)
            _ = pthread_setname_np(name)
        #else
            var bytes = 0
            var cut = name.startIndex
            for index in name.indices {
                let next = bytes + name[index].utf8.count
                guard next <= 15 else { break }
                bytes = next
                cut = name.index(after: index)
            }
            let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            let text = Array(name[..<cut].utf8)
            _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        #endif
    }
}

/// The workers of one sync run: the batch ahead's build, the staging of its pending batch file and of its body in
/// the outbox, and the persisting and delivery of the batch in flight each have their own thread, so they overlap
/// one another.
struct SyncWorkers: Sendable {
    let build: SyncWorker
    let staging: SyncWorker
    let upload: SyncWorker
    let persist: SyncWorker

    /// - Parameter idleTimeout: How long each thread waits for a job before it ends; `nil` (a run that calls
    ///   ``stop()`` at its end) waits until ``stop()``.
    init(idleTimeout: DispatchTimeInterval? = nil) {
        build = SyncWorker(name: "HealthSync build", idleTimeout: idleTimeout)
        staging = SyncWorker(name: "HealthSync staging", idleTimeout: idleTimeout)
        upload = SyncWorker(name: "HealthSync upload", idleTimeout: idleTimeout)
        persist = SyncWorker(name: "HealthSync persist", idleTimeout: idleTimeout)
    }

    /// Lets every worker's thread end once its jobs are done.
    func stop() {
        for worker in [build, staging, upload, persist] { worker.stop() }
    }
}
