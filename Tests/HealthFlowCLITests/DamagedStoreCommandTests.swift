import Foundation
import Testing

/// A damaged store never opens silently from the command line: without `--repair` the command stops with the
/// error and a hint and leaves every byte; with it, each loss is printed as a warning and the damaged file is
/// kept in `damaged/`.
@Suite struct DamagedStoreCommandTests {
    /// A demo store in a fresh folder with one flipped byte in the middle of its snapshot; returns the folder,
    /// the damaged snapshot's path and bytes.
    static func damagedStore() async throws -> (folder: URL, snapshot: String, bytes: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = folder.appendingPathComponent("data")
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

    @Test func aDamagedStoreStopsTheDemoUntilRepairedAndTheRepairIsReported() async throws {
        let (folder, snapshot, bytes) = try await Self.damagedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path

        let stopped = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(stopped.status == 1)
        #expect(stopped.output.contains("error: cannot open the store"), "\(stopped.output)")
        #expect(stopped.output.contains("run again with --repair"))
        #expect(stopped.output.contains("a repair would keep "), "the loss is assessed before anything changes")
        #expect(stopped.output.contains("  snapshot-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == bytes, "nothing was changed")

        let repaired = try await HealthFlowCommandTests.healthflow("demo", "--data", data, "--repair")
        #expect(repaired.status == 0, "\(repaired.output)\(repaired.errors)")
        let warnings = repaired.output.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings.contains { $0.hasPrefix("warning: repaired: snapshot-") && $0.contains("lost") })
        #expect(warnings.contains { $0.contains("kept as damaged/snapshot-") })
        let kept = try FileManager.default.contentsOfDirectory(atPath: data + "/damaged")
        #expect(kept.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/damaged/" + kept[0])) == bytes)

        let after = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(after.status == 0, "a repaired store opens normally")
        #expect(!after.output.contains("warning: "))
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
        // 2,048 blocks of 512 bytes (1 MiB) per file: the journal's header fits, the year (about 6 MB) does not.
        // SIGXFSZ is ignored, so the write fails with EFBIG instead of killing the process.
        let limited = try await HealthFlowCommandTests.healthflow(
            executable: "/bin/sh",
            arguments: ["-c", "ulimit -f 2048 && trap '' XFSZ && exec \"$0\" demo --data \"$1\"", binary, data])
        #expect(limited.status == 1, "\(limited.output)")
        #expect(limited.output.contains("the year was not stored"), "\(limited.output)")
        let journal = try #require(
            try FileManager.default.contentsOfDirectory(atPath: data).first { $0.hasPrefix("journal-") })
        let size = try FileManager.default.attributesOfItem(atPath: data + "/" + journal)[.size] as? Int ?? -1
        #expect(size < 4_096, "the failed write was cut back off the journal (\(size) bytes)")

        let next = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(next.status == 0, "\(next.output)")
        #expect(next.output.contains("ingest it into the store"), "the next run stores the year")
        let again = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(again.status == 0)
        #expect(!again.output.contains("ingest it into the store"), "and only once")
    }
}
