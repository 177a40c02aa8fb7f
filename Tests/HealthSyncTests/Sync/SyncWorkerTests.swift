import FlowKit
import Foundation
import HealthFlow
import Testing

@testable import HealthSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threads a sync run's blocking steps run on are started once and kept for the run, not one per batch.
@Suite struct SyncWorkerTests {
    /// The kernel's ID of the calling thread: never the same for two threads alive at once, and not reused as a
    /// `pthread_t` may be once a thread has ended.
    static func threadID() -> UInt64 {
        #if canImport(Darwin)
            var id: UInt64 = 0
            pthread_threadid_np(nil, &id)
            return id
        #else
            // `/proc/thread-self` links to `<pid>/task/<tid>`.
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            return UInt64(link.split(separator: "/").last ?? "") ?? 0
        #endif
    }

    @Test func aWorkerRunsEveryJobOnTheOneThreadItStartedAndInOrder() async throws {
        let worker = SyncWorker(name: "test")
        defer { worker.stop() }
        var threads: [UInt64] = []
        for job in 0..<20 {
            let (index, thread) = try await worker.run { (job, Self.threadID()) }
            #expect(index == job)
            threads.append(thread)
        }
        #expect(Set(threads).count == 1 && threads[0] != 0)
        #expect(threads.first != Self.threadID())
        #expect(worker.threadsStarted == 1)
    }

    @Test func aJobsErrorIsThrownToItsCallerAndTheWorkerGoesOn() async throws {
        let worker = SyncWorker(name: "test")
        defer { worker.stop() }
        await #expect(throws: SyncEngineError.pendingBatchMissing(path: "x")) {
            try await worker.run { () throws -> Int in throw SyncEngineError.pendingBatchMissing(path: "x") }
        }
        #expect(try await worker.run { 7 } == 7)
        #expect(worker.threadsStarted == 1)
    }

    @Test func aJobGivenAfterStopStillRuns() async throws {
        let worker = SyncWorker(name: "test")
        #expect(try await worker.run { 1 } == 1)
        worker.stop()
        #expect(try await worker.run { 2 } == 2)
        worker.stop()
        #expect(worker.threadsStarted <= 2)
    }

    @Test func theFsyncObserverOfTheGivingTaskIsCarriedOverToTheJob() async throws {
        let worker = SyncWorker(name: "test")
        defer { worker.stop() }
        let seen = LockedState<[String]>([])
        try await AtomicFile.$fsyncObserver.withValue({ path in seen.withLock { $0.append(path.description) } }) {
            try await worker.run { AtomicFile.fsyncObserver?(FileSystemPath("/a")) }
        }
        try await worker.run { AtomicFile.fsyncObserver?(FileSystemPath("/b")) }
        #expect(seen.withLock { $0 } == ["/a"])
    }

    /// A worker's thread carries its name for the system, as profilers and `ps -L` list threads (Linux keeps 15
    /// bytes of it).
    @Test func aWorkersThreadCarriesItsNameForTheSystem() async throws {
        let worker = SyncWorker(name: "HealthSync build")
        defer { worker.stop() }
        #if canImport(Darwin)
            let name = try await worker.run { () -> String in
                var buffer = [CChar](repeating: 0, count: 64)
                _ = pthread_getname_np(pthread_self(), &buffer, buffer.count)
                return String(cString: buffer)
            }
            #expect(name == "HealthSync build")
        #else
            let name = try await worker.run { () -> String in
                let comm = try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
                return comm.trimmingCharacters(in: .newlines)
            }
            #expect(name == "HealthSync buil")
        #endif
    }
}
