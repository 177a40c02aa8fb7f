import Foundation
import Testing

@testable import HealthFlow

/// Damage that no interrupted append explains is never cut off silently: opening stops with a typed error that
/// names the file and the offset, and it does so without searching the damage byte by byte.
struct FileHealthStoreDamageTests {
    typealias Crash = FileHealthStoreCrashTests

    /// A closed store's only journal, and its bytes.
    static func journal(in directory: URL, seed: UInt64) throws -> (path: String, bytes: [UInt8]) {
        let store = try DurableFixture.open(directory)
        for operation in try DurableFixture.workload(seed: seed, snapshots: false) {
            DurableFixture.perform(operation, on: store)
        }
        store.close()
        let path = Crash.journalPath(directory)
        return (path, try Crash.bytes(path))
    }

    @Test func zerosLongerThanOneAppendAfterTheLastRecordAreCorruption() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let (path, journal) = try Self.journal(in: directory, seed: 21)
            try Crash.write(journal + [UInt8](repeating: 0, count: RecordFrame.maximumZeroTail), to: path)
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.recovery.tornTail?.length == RecordFrame.maximumZeroTail)
            reopened.close()

            try Crash.write(journal + [UInt8](repeating: 0, count: RecordFrame.maximumZeroTail + 1), to: path)
            #expect(
                throws: FileStoreError.corruptFile(
                    name: StoreLayout.journalName(0), offset: journal.count, problem: .headerChecksumMismatch)
            ) { try DurableFixture.open(directory) }
            #expect(try Crash.bytes(path).count == journal.count + RecordFrame.maximumZeroTail + 1)  // kept
        }
    }

    @Test func garbageAfterTheLastRecordIsCorruptionUnlessItIsAnUnfinishedHeader() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let (path, journal) = try Self.journal(in: directory, seed: 22)
            try Crash.write(journal + [UInt8](repeating: 0xA5, count: RecordFrame.headerSize - 1), to: path)
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.recovery.tornTail?.problem == .truncated)
            reopened.close()

            try Crash.write(journal + [UInt8](repeating: 0xA5, count: 20 << 10), to: path)
            #expect(
                throws: FileStoreError.corruptFile(
                    name: StoreLayout.journalName(0), offset: journal.count, problem: .headerChecksumMismatch)
            ) { try DurableFixture.open(directory) }
        }
    }

    /// Every single flipped byte of a journal — the last record's included — stops `open` with the damaged
    /// record's offset; none is taken for a torn write and dropped. Bounded: one open per byte of a small journal.
    @Test func everyFlippedByteOfAJournalStopsOpenAtTheDamagedRecord() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let (path, journal) = try Self.journal(in: directory, seed: 23)
            var starts: [Int] = []
            var offset = StoreLayout.journalMagic.count
            while case .record(_, _, let next, _) = FrameScanner(bytes: journal).scan(at: offset) {
                starts.append(offset)
                offset = next
            }
            #expect(offset == journal.count && starts.count > 2)
            var cases = 0
            for position in StoreLayout.journalMagic.count..<journal.count {
                var copy = journal
                copy[position] ^= 0x10
                try Crash.write(copy, to: path)
                let record = starts.last { $0 <= position } ?? 0
                do throws(FileStoreError) {
                    try DurableFixture.open(directory).close()
                    Issue.record("a flipped byte at \(position) opened without an error")
                } catch .corruptFile(let name, let at, _) {
                    #expect(name == StoreLayout.journalName(0) && at == record, "byte \(position)")
                } catch {
                    Issue.record("byte \(position): \(error)")
                }
                cases += 1
            }
            print("FileHealthStoreDamageTests: \(cases) flipped-byte cases, each a typed error at its record")
        }
    }
}
