import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// A sealed memtable written by the backend's ``SegmentFlusher`` while changes go on: every read sees its rows
/// until the segment is in place, a write that fails gives them back and stops changes, and closing or dropping
/// the backend lets the write finish first.
struct SegmentFlusherTests {
    private typealias Backend = SegmentedHealthStoreBackendTests

    /// Three step counts fill the tiny memtable (three rows) and seal it; the heart rate keeps its own memtable
    /// non-empty, so the change does not wait for the segment (it waits when every memtable is empty).
    private static func sealingBatch(_ batch: Int) throws -> [HealthSample] {
        let start = Fixture.noon + Double(batch * 600)
        return try (0..<3).map { try StoreFixture.sample(.stepCount, 10, start: start + Double($0 * 60), duration: 60) }
            + [try StoreFixture.sample(.heartRate, 60, unit: "count/min", start: start)]
    }

    @Test func rowsOfAMemtableBeingWrittenAreReadUntilItsSegmentIsInPlace() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let gate = SegmentGate()
            var backend = try Backend.open(directory, fileSystem: gate, compactionFanout: 100)
            defer { backend.close() }
            let first = try Self.sealingBatch(0)
            try backend.insert(Backend.objects(first))
            gate.waitForArrival()
            // The flusher is held before its file exists: the sealed rows are in memory only.
            let late = try StoreFixture.sample(.stepCount, 20, start: Fixture.noon + 3_600, duration: 60)
            try backend.insert(Backend.objects([late]))
            let steps = first.filter { $0.type == .stepCount } + [late]
            for sample in steps { #expect(backend.sample(withUUID: sample.uuid)?.sample == sample) }
            #expect(backend.storedUUIDs(among: steps.map(\.uuid)) == Set(steps.map(\.uuid)))
            #expect(backend.samples(of: .stepCount, matching: nil).map(\.uuid) == steps.map(\.uuid))
            let changes = backend.changes(of: .stepCount, after: 0, limit: 10)
            #expect(changes.map(\.sample.uuid) == steps.map(\.uuid))
            #expect(changes.allSatisfy { !$0.isDeletion })
            // A sealed row deleted: the memtable's tombstone hides it, and an anchored query reports the deletion.
            try backend.delete([steps[1]])
            #expect(backend.sample(withUUID: steps[1].uuid) == nil)
            #expect(
                backend.samples(of: .stepCount, matching: nil).map(\.uuid) == [steps[0], steps[2], late].map(\.uuid))
            #expect(
                backend.changes(of: .stepCount, after: 0, limit: 10).filter(\.isDeletion).map(\.sample.uuid) == [
                    steps[1].uuid
                ])
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.hasPrefix(SegmentName.prefix) && $0.hasSuffix(SegmentName.suffix) })

            gate.open()
            try backend.checkpoint()
            #expect(
                backend.samples(of: .stepCount, matching: nil).map(\.uuid) == [steps[0], steps[2], late].map(\.uuid))
            let after = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(after.contains(SegmentName(type: .stepCount, first: 1, last: 1).fileName))
            #expect(!after.contains { $0.hasPrefix(StoreLayout.temporaryPrefix) })
        }
    }

    @Test func aSegmentWriteThatFailsGivesItsRowsBackAndStopsChanges() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let gate = SegmentGate(failing: true)
            gate.open()
            var backend = try Backend.open(directory, fileSystem: gate, compactionFanout: 100)
            let first = try Self.sealingBatch(0)
            try backend.insert(Backend.objects(first))
            // The type's next seal waits for the failed write: its rows go back into the memtable, older than the
            // batch's, and the backend stops taking changes.
            let second = try Self.sealingBatch(1)
            try backend.insert(Backend.objects(second))
            guard case .io = backend.failure else {
                Issue.record("the failed write is the backend's failure, not \(String(describing: backend.failure))")
                return
            }
            let steps = (first + second).filter { $0.type == .stepCount }
            #expect(backend.samples(of: .stepCount, matching: nil).map(\.uuid) == steps.map(\.uuid))
            #expect(backend.memtableCounts[.stepCount] == 6)
            #expect {
                try backend.insert(Backend.objects([try StoreFixture.sample(.bodyMass, 70, unit: "kg")]))
            } throws: { error in
                guard case FileStoreError.unusable = error else { return false }
                return true
            }
            backend.close()
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.hasPrefix(StoreLayout.temporaryPrefix) })
            let reopened = try Backend.open(directory)
            defer { reopened.close() }
            #expect(reopened.samples(of: .stepCount, matching: nil).map(\.uuid) == steps.map(\.uuid))
        }
    }

    @Test(arguments: [true, false])
    func aBackendClosedOrDroppedWhileASegmentIsWrittenLeavesItInPlace(closing: Bool) throws {
        let limit = SegmentMemtableLimit(rows: 2_000, bytes: 1 << 30)
        for round in 0..<3 {
            try DurableFixture.withTemporaryDirectory { directory in
                let samples = try (0..<2_000).map {
                    try StoreFixture.sample(.stepCount, 1, start: Fixture.noon + Double($0 * 60), duration: 60)
                }
                let heartRate = try StoreFixture.sample(.heartRate, 60, unit: "count/min")
                do {
                    var backend = try Backend.open(directory, memtableLimit: limit, logLimit: 1 << 30)
                    try backend.insert(Backend.objects(samples + [heartRate]))
                    if closing { backend.close() }
                }
                let reopened = try Backend.open(directory, memtableLimit: limit, logLimit: 1 << 30)
                defer { reopened.close() }
                #expect(reopened.recovery.removedFiles.isEmpty, "round \(round): a temporary segment was left")
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                #expect(names.contains(SegmentName(type: .stepCount, first: 1, last: 1).fileName), "round \(round)")
                #expect(reopened.samples(of: .stepCount, matching: nil).count == samples.count)
            }
        }
    }
}

/// The real file system, except that creating a temporary segment file waits until the gate is open (telling
/// ``waitForArrival()`` it got there), and with `failing`, then fails with `ENOSPC`.
private final class SegmentGate: StoreFileSystem {
    private let real = PosixFileSystem()
    private let failing: Bool
    private let arrived = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)

    init(failing: Bool = false) {
        self.failing = failing
    }

    /// Lets every held and later creation go on.
    func open() { opened.signal() }

    /// Returns once a creation of a temporary segment file is held (or has passed the open gate).
    func waitForArrival() { arrived.wait() }

    func createFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile {
        let name = path.lastComponent.description
        if name.hasPrefix(StoreLayout.temporaryPrefix), name.contains(SegmentName.prefix),
            name.hasSuffix(SegmentName.suffix + StoreLayout.temporarySuffix)
        {
            arrived.signal()
            opened.wait()
            opened.signal()
            if failing { throw .io(operation: "open", path: path.description, errno: ENOSPC) }
        }
        return try real.createFile(at: path)
    }

    func makeDirectory(at path: FileSystemPath) throws(FileStoreError) { try real.makeDirectory(at: path) }
    func contentsOfDirectory(at path: FileSystemPath) throws(FileStoreError) -> [String] {
        try real.contentsOfDirectory(at: path)
    }
    func readFile(at path: FileSystemPath) throws(FileStoreError) -> [UInt8] { try real.readFile(at: path) }
    func openFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile { try real.openFile(at: path) }
    func openFileForReading(at path: FileSystemPath) throws(FileStoreError) -> any ReadableStoreFile {
        try real.openFileForReading(at: path)
    }
    func rename(_ source: FileSystemPath, to destination: FileSystemPath) throws(FileStoreError) {
        try real.rename(source, to: destination)
    }
    func removeFile(at path: FileSystemPath) throws(FileStoreError) { try real.removeFile(at: path) }
    func syncDirectory(at path: FileSystemPath) throws(FileStoreError) { try real.syncDirectory(at: path) }
    func lockFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile { try real.lockFile(at: path) }
}
