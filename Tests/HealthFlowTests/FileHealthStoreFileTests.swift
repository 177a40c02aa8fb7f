import FlowKit
import Foundation
import Testing

@testable import HealthFlow

#if canImport(Glibc)
    import Glibc
#endif

/// The files themselves: permissions, the directory lock, closing, and the documented byte format.
struct FileHealthStoreFileTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func theDirectoryIsPrivateAndEveryFileOwnerOnly() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            for operation in try DurableFixture.workload(seed: 2, snapshots: true) {
                DurableFixture.perform(operation, on: store)
            }
            #expect(try Self.mode(directory.path) == 0o700)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(names == ["LOCK", StoreLayout.journalName(2), StoreLayout.snapshotName(2)])
            for name in names {
                #expect(try Self.mode(directory.appendingPathComponent(name).path) == 0o600, "\(name)")
            }
            store.close()
        }
    }

    @Test func aSecondStoreOnTheSameDirectoryIsRefusedUntilTheFirstCloses() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let first = try DurableFixture.open(directory)
            let lock = directory.appendingPathComponent("LOCK").path
            #expect(throws: FileStoreError.alreadyOpen(path: directory.standardizedFileURL.path + "/LOCK")) {
                try DurableFixture.open(directory)
            }
            #expect(FileManager.default.fileExists(atPath: lock))
            first.close()
            let second = try DurableFixture.open(directory)
            second.close()
        }
    }

    /// A child process being started holds a copy of every descriptor until its `exec`: a lock busy for such a
    /// moment is waited out, not reported as another store.
    @Test func aLockHeldForAMomentIsWaitedOutNotReportedAsAnotherStore() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            try DurableFixture.open(directory).close()
            let lock = open(directory.appendingPathComponent("LOCK").path, O_RDWR | O_CLOEXEC)
            #expect(lock >= 0)
            #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
            // The other holder lets go while the store waits between tries (no clock involved).
            let pauses = LockedState(0)
            let fileSystem = PosixFileSystem {
                let count = pauses.withLock { count in
                    count += 1
                    return count
                }
                if count == 3 { close(lock) }
            }
            let store = try DurableFixture.open(directory, fileSystem: fileSystem)
            #expect(pauses.withLock { $0 } == 3, "the store found the lock busy and waited it out")
            store.close()
        }
    }

    @Test func aClosedStoreRefusesChangesButStillAnswersQueries() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            #expect(DurableFixture.perform(.authorize(share: [.stepCount], read: [.stepCount]), on: store))
            let kept = try StoreFixture.sample()
            #expect(DurableFixture.perform(.save([kept]), on: store))
            store.close()
            store.close()
            let late = try StoreFixture.sample()
            let error = DurableFixture.failure { store.save([late], withCompletion: $0) }
            #expect(error as? FileStoreError == .closed)
            #expect((error as? FileStoreError)?.code == .databaseInaccessible)
            #expect(throws: FileStoreError.closed) { try store.snapshot() }
            #expect(throws: FileStoreError.closed) {
                try store.ingest([try StoreFixture.sample(source: Fixture.watch)])
            }
            #expect(StateDump(store.image).locations.keys.sorted { $0.uuidString < $1.uuidString } == [kept.uuid])
        }
    }

    @Test func aPathThatIsAFileIsNotADirectory() {
        DurableFixture.withTemporaryDirectory { directory in
            #expect(FileManager.default.createFile(atPath: directory.path, contents: Data()))
            #expect(throws: FileStoreError.notADirectory(path: directory.standardizedFileURL.path)) {
                try DurableFixture.open(directory)
            }
        }
    }

    @Test func openingRemovesOnlyTheStoresOwnLeftoversNeverOthersFilesOrDirectories() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            try DurableFixture.open(directory).close()
            let manager = FileManager.default
            let othersFile = directory.appendingPathComponent("notes.tmp")
            let othersDirectory = directory.appendingPathComponent("something.tmp")
            let unrelatedDotted = directory.appendingPathComponent(".healthflow-readme.tmp")
            let directoryWithOurName = directory.appendingPathComponent(".healthflow-journal-0000000000000009.hfj.tmp")
            let ourLeftover = ".healthflow-snapshot-0000000000000001.hfs.tmp"
            #expect(manager.createFile(atPath: othersFile.path, contents: Data("keep".utf8)))
            #expect(manager.createFile(atPath: unrelatedDotted.path, contents: Data("keep".utf8)))
            try manager.createDirectory(at: othersDirectory, withIntermediateDirectories: false)
            try manager.createDirectory(at: directoryWithOurName, withIntermediateDirectories: false)
            #expect(manager.createFile(atPath: directory.appendingPathComponent(ourLeftover).path, contents: Data([1])))

            let store = try DurableFixture.open(directory)
            defer { store.close() }
            #expect(store.recovery.removedFiles == [ourLeftover])
            #expect(try Data(contentsOf: othersFile) == Data("keep".utf8))
            #expect(try Data(contentsOf: unrelatedDotted) == Data("keep".utf8))
            var isDirectory: ObjCBool = false
            #expect(
                manager.fileExists(atPath: othersDirectory.path, isDirectory: &isDirectory) && isDirectory.boolValue)
            #expect(
                manager.fileExists(atPath: directoryWithOurName.path, isDirectory: &isDirectory)
                    && isDirectory.boolValue)
            #expect(!manager.fileExists(atPath: directory.appendingPathComponent(ourLeftover).path))
        }
    }

    /// Names one byte away from the store's own (a sign, an uppercase digit, 15 or 17 digits, something before or
    /// after): another program's files, whatever they look like.
    static let lookAlikes = [
        "journal-+000000000000000.hfj", "journal--000000000000000.hfj", "journal-000000000000000A.hfj",
        "journal-000000000000000.hfj", "journal-00000000000000000.hfj", "journal-0000000000000000.hfj~",
        "journal-0000000000000001.hfj.bak", " journal-0000000000000001.hfj", "Journal-0000000000000001.hfj",
        "snapshot-+000000000000001.hfs", "snapshot--000000000000001.hfs", "snapshot-000000000000000F.hfs",
        "snapshot-000000000000001.hfs", "snapshot-00000000000000001.hfs", "snapshot-0000000000000001.hfsx",
        ".healthflow-journal-+000000000000009.hfj.tmp", ".healthflow-snapshot-000000000000000F.hfs.tmp",
        ".healthflow-journal-000000000000009.hfj.tmp", ".healthflow-snapshot-00000000000000001.hfs.tmp",
        ".healthflow-journal-0000000000000009.hfj.tmp~", ".healthflow-.healthflow-journal-0000000000000009.hfj.tmp.tmp",
        ".healthflow-journal-0000000000000009.hfj\u{301}.tmp",
    ]

    @Test func onlyTheNamesTheStoreGeneratesAreTheStores() {
        for generation: UInt64 in [0, 1, 9, 10, 0xff, 1 << 32, .max] {
            let journal = StoreLayout.journalName(generation)
            let snapshot = StoreLayout.snapshotName(generation)
            #expect(StoreLayout.classify(journal) == .journal(generation))
            #expect(StoreLayout.classify(snapshot) == .snapshot(generation))
            #expect(StoreLayout.classify(StoreLayout.temporaryName(for: journal)) == .temporary)
            #expect(StoreLayout.classify(StoreLayout.temporaryName(for: snapshot)) == .temporary)
        }
        for name in Self.lookAlikes { #expect(StoreLayout.classify(name) == .other, "\(name)") }
    }

    /// Another program's files whose names look like journals, snapshots or their temporary files stay, byte for
    /// byte, through opening, snapshots, journal rotations and a repair, while the store's own leftover goes.
    @Test func foreignFilesNamedLikeTheStoresOwnSurviveOpeningSnapshotsRotationAndRepair() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let manager = FileManager.default
            try DurableFixture.open(directory).close()
            var foreign: [String: Data] = [:]
            for (index, name) in Self.lookAlikes.enumerated() {
                foreign[name] = Data("another program's file \(index)\n".utf8)
                #expect(
                    manager.createFile(atPath: directory.appendingPathComponent(name).path, contents: foreign[name]))
            }
            let ourLeftover = StoreLayout.temporaryName(for: StoreLayout.snapshotName(1))
            #expect(manager.createFile(atPath: directory.appendingPathComponent(ourLeftover).path, contents: Data([1])))
            func foreignIntact(_ moment: String) {
                for (name, bytes) in foreign {
                    #expect(
                        (try? Data(contentsOf: directory.appendingPathComponent(name))) == bytes, "\(moment): \(name)")
                }
            }
            func ownNames() throws -> [String] {
                try manager.contentsOfDirectory(atPath: directory.path).filter { StoreLayout.classify($0) != .other }
            }

            // A small journal limit: the workload's changes rotate the journal as well as its own snapshots.
            let store = try DurableFixture.open(directory, limit: 1 << 10)
            #expect(store.recovery.removedFiles == [ourLeftover])
            foreignIntact("open")
            for operation in try DurableFixture.workload(seed: 5, snapshots: true) {
                DurableFixture.perform(operation, on: store)
            }
            store.close()
            // Two records in the newest journal, for the repair below.
            let more = try DurableFixture.open(directory)
            for minute in 0..<2 {
                let sample = try StoreFixture.sample(start: Fixture.noon + Double(minute) * 60, source: Fixture.watch)
                #expect(DurableFixture.perform(.ingest([sample]), on: more))
            }
            more.close()
            foreignIntact("snapshots and rotations")
            let journal = try #require(try ownNames().first { $0.hasPrefix("journal-") })
            guard case .journal(let generation) = StoreLayout.classify(journal) else { return }
            #expect(generation >= 3, "the journal was rotated")
            #expect(try ownNames().sorted() == [journal, StoreLayout.snapshotName(generation)])

            // A damaged record: the repair writes a new snapshot and removes what it covers.
            let path = directory.appendingPathComponent(journal).path
            var bytes = try FileHealthStoreCrashTests.bytes(path)
            let record = try #require(try FileHealthStoreRepairTests.records(bytes).first)
            bytes[(record.offset + RecordFrame.headerSize + record.next) / 2] ^= 0x40
            try FileHealthStoreCrashTests.write(bytes, to: path)
            let repaired = try DurableFixture.open(directory, recovery: .repair)
            #expect(repaired.recovery.repairs.count == 1)
            #expect(repaired.recovery.removedFiles.isEmpty)
            repaired.close()
            let reopened = try DurableFixture.open(directory)
            #expect(reopened.recovery.removedFiles.isEmpty)
            reopened.close()
            foreignIntact("repair")
            let names = Set(try manager.contentsOfDirectory(atPath: directory.path))
            #expect(
                names
                    == Set(foreign.keys).union([
                        StoreLayout.lockName, StoreLayout.damagedFolder, StoreLayout.journalName(generation + 1),
                        StoreLayout.snapshotName(generation + 1),
                    ]))
        }
    }

    @Test func aDeleteRecordHasTheDocumentedBytes() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let (kind, payload) = MutationCodec.encode(.delete([uuid]))
        var record: [UInt8] = []
        RecordFrame.append(kind: kind, payload: payload, to: &record)
        let hex = record.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        #expect(
            hex.joined(separator: " ")
                == "11 00 00 00 01 03 00 00 ef 1c ce 08 77 04 a8 d1 "
                + "01 e6 21 e1 f8 c3 6c 49 5a 93 fc 0c 24 7a 3e 6e 5f")
    }

    @Test func crc32IsZlibs() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        let long = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var bitwise: UInt32 = 0xFFFF_FFFF
        for byte in long {
            bitwise ^= UInt32(byte)
            for _ in 0..<8 { bitwise = bitwise & 1 == 1 ? (bitwise >> 1) ^ 0xEDB8_8320 : bitwise >> 1 }
        }
        #expect(CRC32.checksum(long) == ~bitwise)
        #expect(CRC32.checksum(long, in: 3..<997) != CRC32.checksum(long))
    }

    @Test func everySampleKindRoundTripsThroughTheBinaryCodec() throws {
        var samples: [HealthSample] = []
        for operation in try DurableFixture.workload(seed: 13) {
            switch operation {
            case .save(let batch), .ingest(let batch): samples += batch
            default: break
            }
        }
        #expect(Set(samples.map { "\($0.type.kind)" }).count == 4)
        let (kind, payload) = MutationCodec.encode(.insert(samples))
        var reader = BinaryReader(payload, range: payload.indices)
        var decoder = SampleDecoder()
        #expect(try MutationCodec.decode(kind: kind, from: &reader, samples: &decoder) == .insert(samples))
        // Every prefix of the payload fails to decode, without trapping.
        for cut in stride(from: 0, to: payload.count, by: 3) {
            var short = BinaryReader(payload, range: 0..<cut)
            var decoder = SampleDecoder()
            #expect(throws: BinaryReader.Failure.self) {
                try MutationCodec.decode(kind: kind, from: &short, samples: &decoder)
            }
        }
    }

    /// Sources whose names are equal under Unicode canonical equivalence but written differently — combining
    /// marks in another order, of the same length — come back from the codec with their own bytes.
    @Test func sourcesSpelledDifferentlyKeepTheirBytesThroughTheCodec() throws {
        let names = ["Ame\u{301}\u{316}lie’s Watch", "Ame\u{316}\u{301}lie’s Watch"]
        #expect(names[0] == names[1] && Array(names[0].utf8) != Array(names[1].utf8))
        let samples = try (0..<6).map { index in
            HealthSample.quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: Double(index)),
                    start: Date(timeIntervalSince1970: Double(index) * 60),
                    end: Date(timeIntervalSince1970: Double(index) * 60 + 30),
                    source: HealthSource(bundleIdentifier: "app." + names[index % 2], name: names[index % 2])))
        }
        let (kind, payload) = MutationCodec.encode(.insert(samples))
        var reader = BinaryReader(payload, range: payload.indices)
        var decoder = SampleDecoder()
        guard case .insert(let decoded) = try MutationCodec.decode(kind: kind, from: &reader, samples: &decoder) else {
            Issue.record("not an insert")
            return
        }
        #expect(decoded.map { Array($0.source.name.utf8) } == samples.map { Array($0.source.name.utf8) })
        #expect(
            decoded.map { Array($0.source.bundleIdentifier.utf8) }
                == samples.map { Array($0.source.bundleIdentifier.utf8) })
    }

    @Test func journalRecordsFramedInPlaceEqualTheEncodedRecordsFramed() throws {
        func framedOneByOne(_ mutation: StoreMutation, recordSize: Int) -> [UInt8] {
            let parts = MutationCodec.encodeRecords(mutation, recordSize: recordSize)
            var bytes: [UInt8] = []
            for (position, part) in parts.enumerated() {
                RecordFrame.append(
                    kind: part.kind, payload: part.payload, continues: position < parts.count - 1, to: &bytes)
            }
            return bytes
        }
        var mixed: [HealthSample] = []
        for operation in try DurableFixture.workload(seed: 13) {
            if case .save(let batch) = operation { mixed += batch }
            if case .ingest(let batch) = operation { mixed += batch }
        }
        // 300 samples: a record closed early holds fewer than 128, so its count's varint shrinks from 2 bytes to 1.
        let source = HealthSource(bundleIdentifier: "org.healthflow.frames", name: "frames")
        let rates = try (0..<300).map { index in
            HealthSample.quantity(
                try HealthQuantitySample(
                    type: .heartRate,
                    quantity: HealthQuantity(
                        unit: .count().unitDivided(by: .minute()), doubleValue: 60 + Double(index)),
                    date: Date(timeIntervalSinceReferenceDate: 60 * Double(index)),
                    source: index % 7 == 0 ? Fixture.watch : source))
        }
        let mutations: [StoreMutation] = [
            .insert([]), .insert(mixed), .insert(rates), .delete(mixed.map(\.uuid)),
            .authorization(
                share: [.heartRate], read: [.stepCount],
                request: AuthorizationRequest(share: [.heartRate], read: [.stepCount])),
        ]
        for mutation in mutations {
            for recordSize in [1, 200, 5_000, RecordFrame.journalRecordSize] {
                let framed = try MutationCodec.framedRecords(mutation, recordSize: recordSize)
                #expect(framed == framedOneByOne(mutation, recordSize: recordSize), "record size \(recordSize)")
            }
        }
    }

    @Test func decodingStillAppliesTheSampleRules() throws {
        func quantitySample(_ type: String, _ value: Double, _ unit: String, into writer: inout BinaryWriter) {
            writer.byte(1)
            writer.uuid(UUID())
            writer.string(type)
            writer.double(0)
            writer.double(60)
            writer.string("com.example")
            writer.string("Example")
            writer.count(0)
            writer.double(value)
            writer.string(unit)
        }
        var decoder = SampleDecoder()
        for (unit, value, valid) in [("count", 5.0, true), ("kg", 5, false), ("count", -1, false), ("count", 7, true)] {
            var writer = BinaryWriter()
            quantitySample("stepCount", value, unit, into: &writer)
            var reader = BinaryReader(writer.bytes, range: writer.bytes.indices)
            if valid {
                #expect(try decoder.sample(from: &reader).type == .stepCount)
            } else {
                #expect(throws: BinaryReader.Failure.self, "\(value) \(unit)") { try decoder.sample(from: &reader) }
            }
        }
    }
}
