import Foundation
import Testing

@testable import HealthFlow

/// A full disk (or an I/O error) at any step that changes the disk: the change that met it fails with a typed
/// error and is not applied, the store is exactly as it was before that change, and once space is back the
/// next change succeeds (after a failed flush, whose record's fate is in doubt, after reopening).
struct FileHealthStoreFullDiskTests {
    typealias Operation = DurableFixture.Operation
    typealias Crash = FileHealthStoreCrashTests

    @Test func aFullDiskAtAnyStepLeavesTheStoreAsItWasAndTheNextChangeSucceeds() throws {
        let operations = try DurableFixture.workload(seed: 41, snapshots: true)
        let steps = try DurableFixture.diskSteps(of: operations)
        #expect(steps.count > 40)
        var cases = 0
        for (position, step) in steps.enumerated() {
            let keeps: [Int?] = step.operation == "write" ? [0, step.bytes / 2] : [nil]
            for keeping in keeps {
                let fault = FaultyFileSystem.Fault.fail(at: position + 1, keeping: keeping)
                try DurableFixture.withTemporaryDirectory { directory in
                    let faulty = FaultyFileSystem(fault)
                    var acknowledged: [Operation] = []
                    var failed: [(Operation, FileStoreError)] = []
                    var store: FileHealthStore?
                    do throws(FileStoreError) {
                        store = try DurableFixture.open(directory, fileSystem: faulty)
                    } catch {
                        // Opening met the fault: nothing was acknowledged; the next open works.
                        #expect(error.isIOError, "\(fault): \(error)")
                    }
                    if let store {
                        for operation in operations {
                            guard let error = DurableFixture.attempt(operation, on: store) else {
                                acknowledged.append(operation)
                                continue
                            }
                            if let storage = error as? FileStoreError { failed.append((operation, storage)) }
                        }
                        // Space is back: one more change, on this store unless a failed flush made it refuse.
                        let refusing = failed.contains { failure in
                            switch failure.1 {
                            case .unusable, .io("fsync", _, _): true
                            default: false
                            }
                        }
                        if !refusing {
                            let extra = Operation.ingest([
                                try StoreFixture.sample(start: Fixture.noon + 86_400, source: Fixture.watch)
                            ])
                            let succeeded = DurableFixture.perform(extra, on: store)
                            #expect(succeeded, "\(fault): the next change succeeds")
                            if succeeded { acknowledged.append(extra) }
                        }
                        store.close()
                    }
                    let reopened = try DurableFixture.open(directory)
                    let dump = StateDump(reopened.image)
                    // A record written whole whose flush then failed may or may not survive: it is in doubt.
                    let inDoubt = failed.first { if case .io("fsync", _, _) = $0.1 { true } else { false } }?.0
                    let acknowledgedOnly = Crash.referenceDump(acknowledged)
                    if step.operation == "write" && step.name.hasSuffix(".hfj") {
                        #expect(dump == acknowledgedOnly, "\(fault) at \(step): a failed append leaves nothing")
                        let typed = failed.contains { if case .io("write", _, ENOSPC) = $0.1 { true } else { false } }
                        #expect(typed, "\(fault): the caller sees the write's ENOSPC")
                    } else {
                        let withInDoubt = inDoubt.map { Crash.referenceDump(acknowledged + [$0]) }
                        #expect(dump == acknowledgedOnly || dump == withInDoubt, "\(fault) at \(step)")
                    }
                    #expect(reopened.recovery.tornTail == nil, "\(fault): a failed write was cut back")
                    let more = Operation.ingest([
                        try StoreFixture.sample(start: Fixture.noon + 90_000, source: Fixture.watch)
                    ])
                    #expect(DurableFixture.perform(more, on: reopened), "\(fault): the reopened store takes changes")
                    reopened.close()
                }
                cases += 1
            }
        }
        print("FileHealthStoreFullDiskTests: \(cases) full-disk cases over \(steps.count) steps")
    }

    /// A journal is written under a temporary name and renamed into place while open: a full disk in it afterwards
    /// names the journal, as the file is called now.
    @Test func aFullDiskInAJournalRenamedIntoPlaceNamesTheJournalNotItsTemporaryName() throws {
        let operations: [Operation] = try [
            .ingest([StoreFixture.sample(source: Fixture.watch)]), .snapshot,
            .ingest([StoreFixture.sample(start: Fixture.noon + 60, source: Fixture.watch)]),
        ]
        let journal = StoreLayout.journalName(1)
        let steps = try DurableFixture.diskSteps(of: operations)
        let renamed = try #require(steps.firstIndex { $0.operation == "rename" && $0.name == journal })
        let write = try #require(steps[renamed...].firstIndex { $0.operation == "write" && $0.name == journal })
        try DurableFixture.withTemporaryDirectory { directory in
            let faulty = FaultyFileSystem(.fail(at: write + 1, keeping: 0))
            let store = try DurableFixture.open(directory, fileSystem: faulty)
            defer { store.close() }
            #expect(DurableFixture.perform(operations[0], on: store))
            #expect(DurableFixture.perform(operations[1], on: store))
            let error = DurableFixture.attempt(operations[2], on: store) as? FileStoreError
            guard case .io("write", let path, ENOSPC)? = error else {
                Issue.record("expected the write's ENOSPC, got \(String(describing: error))")
                return
            }
            #expect(path == FileSystemPath(directory.standardizedFileURL).appending(journal).description)
        }
    }
}

extension FileStoreError {
    /// Whether this is a system call's failure (as a full disk gives).
    var isIOError: Bool {
        switch self {
        case .io: true
        case .unusable(let cause): cause.isIOError
        default: false
        }
    }
}
