import Foundation
import Testing

/// A damaged store never opens silently from the command line: without `--repair` the command stops with the
/// error and a hint and leaves every byte; with it, each loss is printed as a warning and the damaged file is kept
/// in `damaged/` — except damage the disk-backed store does not repair (its log, history or permission answers),
/// which still stops the command, and the hint says so.
@Suite struct DamagedStoreCommandTests {
    /// A journal demo store in a fresh folder with one flipped byte in the middle of its snapshot; returns the
    /// folder, the damaged snapshot's path and bytes.
    static func damagedStore() async throws -> (folder: URL, snapshot: String, bytes: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = folder.appendingPathComponent("data")
        try StoreFolders.makeJournalStore(at: data)
        let first = try await HealthFlowCommandTests.healthflow("demo", "--data", data.path)
        #expect(first.status == 0, "\(first.errors)")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: data.path).first { $0.hasPrefix("snapshot-") })
        let path = data.appendingPathComponent(name).path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: path))
        return (folder, path, bytes)
    }

    /// The demo on the damaged store in `data` stops with `stop`, what a repair would do (`assessed`) and the
    /// damaged place (a file starting with `file`), changing nothing; `--repair` reports each loss and keeps the
    /// damaged file byte for byte in `damaged/`, with `warning` among its warnings; the next run is clean.
    static func expectStopsUntilRepaired(
        data: String, damaged: String, bytes: Data, stop: String, assessed: String, file: String, warning: String
    ) async throws {
        let stopped = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(stopped.status == 1)
        #expect(stopped.output.contains(stop), "\(stopped.output)")
        #expect(stopped.output.contains("run again with --repair"))
        #expect(stopped.output.contains(assessed), "the loss is assessed before anything changes")
        #expect(stopped.output.contains("  " + file))
        #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == bytes, "nothing was changed")

        let repaired = try await HealthFlowCommandTests.healthflow("demo", "--data", data, "--repair")
        #expect(repaired.status == 0, "\(repaired.output)\(repaired.errors)")
        let warnings = repaired.output.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings.contains { $0.hasPrefix("warning: repaired: " + file) && $0.contains("lost") })
        #expect(warnings.contains { $0.contains("kept as damaged/" + file) })
        #expect(warnings.contains { $0.contains(warning) }, "\(warnings)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: data + "/damaged")
        #expect(kept.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/damaged/" + kept[0])) == bytes)

        let after = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(after.status == 0, "a repaired store opens normally")
        #expect(!after.output.contains("warning: "))
    }

    @Test func aDamagedStoreStopsTheDemoUntilRepairedAndTheRepairIsReported() async throws {
        let (folder, snapshot, bytes) = try await Self.damagedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.expectStopsUntilRepaired(
            data: folder.appendingPathComponent("data").path, damaged: snapshot, bytes: bytes,
            stop: "error: cannot open the store", assessed: "a repair would keep ", file: "snapshot-",
            warning: "repaired: ")
    }

    @Test func aDamagedStoreStopsSyncWithStatusOneUntilRepaired() async throws {
        let (folder, _, _) = try await Self.damagedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let outbox = folder.appendingPathComponent("outbox").path

        let stopped = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(stopped.status == 1)
        #expect(stopped.errors.contains("cannot open the store"), "\(stopped.errors)")
        #expect(stopped.errors.contains("--repair"))
        let sent = (try? FileManager.default.contentsOfDirectory(atPath: outbox)) ?? []
        #expect(sent.filter { $0.hasSuffix(".multipart") }.isEmpty, "nothing was sent")

        let repaired = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data, "--repair")
        #expect(repaired.status == 0, "\(repaired.errors)")
        #expect(repaired.output.contains("warning: repaired: "))
        #expect(repaired.output.contains("sent "))
    }

    /// A disk-backed demo store in a fresh folder, and the path of its heart-rate segment (the largest).
    static func diskBackedStore() async throws -> (folder: URL, data: String, segment: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = folder.appendingPathComponent("data").path
        let first = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(first.status == 0, "\(first.errors)")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: data).first { $0.hasPrefix("segment-heartRate-") })
        return (folder, data, data + "/" + name)
    }

    static func flip(_ path: String, at offset: (Int) -> Int) throws -> Data {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset(bytes.count)] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: path))
        return bytes
    }

    /// Damage in a row block of a segment (found only when a query reads it) fails the demo with the error and
    /// what a repair would lose; `--repair` writes again what reads, keeps the damaged file in `damaged/`, restarts
    /// the history and says so; the next run is clean.
    @Test func aDamagedDiskBackedStoreStopsTheDemoUntilRepairedAndTheRepairIsReported() async throws {
        let (folder, data, segment) = try await Self.diskBackedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Self.flip(segment) { $0 / 2 }
        try await Self.expectStopsUntilRepaired(
            data: data, damaged: segment, bytes: bytes, stop: "met damage while answering",
            assessed: "a repair would lose at least ", file: "segment-heartRate-",
            warning: "the repair lost changes the store's history counted")
    }

    /// Damage the disk-backed store does not repair (its history file) stops the demo with and without
    /// `--repair`, every byte kept, and the hint says what it repairs.
    @Test func damageTheDiskBackedStoreCannotRepairStopsTheDemoEvenWithRepair() async throws {
        let (folder, data, _) = try await Self.diskBackedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = data + "/segments-history.hfh"
        let bytes = try Self.flip(history) { $0 - 10 }

        for arguments in [["demo", "--data", data], ["demo", "--data", data, "--repair"]] {
            let stopped = try await HealthFlowCommandTests.healthflow(arguments: arguments)
            #expect(stopped.status == 1, "\(arguments)")
            #expect(stopped.output.contains("error: cannot open the store"), "\(stopped.output)")
            #expect(stopped.output.contains("segments-history.hfh"), "the damaged file is named")
            #expect(stopped.output.contains("repairs damaged segments only"), "\(stopped.output)")
            #expect(!stopped.output.contains("run again with --repair"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: history)) == bytes, "nothing was changed")
            #expect(!FileManager.default.fileExists(atPath: data + "/damaged"))
        }
    }

    /// Damage met only by a query (a block in the middle of a segment) fails the demo and the sync with the
    /// error, instead of ending as if every answer were whole.
    @Test func damageMetWhileAnsweringFailsTheDemoAndTheSync() async throws {
        let (folder, data, segment) = try await Self.diskBackedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Self.flip(segment) { $0 / 2 }

        let demo = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(demo.status == 1)
        #expect(demo.output.contains("met damage while answering"), "\(demo.output)")
        #expect(demo.output.contains("segment-heartRate-"), "\(demo.output)")

        let outbox = folder.appendingPathComponent("outbox").path
        let sync = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(sync.status == 1, "\(sync.output)")
        #expect(sync.errors.contains("met damage while answering"), "\(sync.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == bytes, "nothing was changed")
    }

    @Test func repairIsRefusedForAnInMemoryStore() async throws {
        let run = try await HealthFlowCommandTests.healthflow("demo", "--in-memory", "--repair")
        #expect(run.status == 2)
        #expect(run.errors.contains("--repair applies to a durable store"))
    }
}

/// The demo's seeding is one step: a file-size limit (a full disk, as the process sees it) during it leaves no
/// half year behind, the run says so and fails, and the next run stores the year.
@Suite struct DemoSeedingFullDiskTests {
    @Test func aFullDiskDuringSeedingLeavesNothingAndTheNextRunSeedsAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let binary = HealthFlowCommandTests.productsDirectory.appendingPathComponent("healthflow").path
        // 2,048 blocks of 512 bytes (1 MiB) per file: the log's header fits, the year (about 6 MB) does not.
        // SIGXFSZ is ignored, so the write fails with EFBIG instead of killing the process.
        let limited = try await HealthFlowCommandTests.healthflow(
            executable: "/bin/sh",
            arguments: ["-c", "ulimit -f 2048 && trap '' XFSZ && exec \"$0\" demo --data \"$1\"", binary, data])
        #expect(limited.status == 1, "\(limited.output)")
        #expect(limited.output.contains("the year was not stored"), "\(limited.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: data)
        let log = try #require(names.first { $0.hasPrefix("segment-log-") })
        let size = try FileManager.default.attributesOfItem(atPath: data + "/" + log)[.size] as? Int ?? -1
        #expect(size < 4_096, "the failed write was cut back off the log (\(size) bytes)")
        #expect(!names.contains { $0.hasSuffix(".hfseg") }, "no segment holds any of it: \(names)")

        let next = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(next.status == 0, "\(next.output)")
        #expect(next.output.contains("ingest it into the store"), "the next run stores the year")
        let again = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(again.status == 0)
        #expect(!again.output.contains("ingest it into the store"), "and only once")
    }
}
