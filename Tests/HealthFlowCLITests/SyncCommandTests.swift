import ExampleSupport
import Foundation
import HealthFlow
import ReceiverSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `healthflow sync`, run as a subprocess.
@Suite struct SyncCommandTests {
    @Test func syncSendsEverythingOnceThenNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = folder.appendingPathComponent("outbox").path
        let data = folder.appendingPathComponent("data").path

        let first = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("sent "))
        let generating = try #require(first.output.range(of: "[setup]    generate a year"), "seeding shows progress")
        let firstBatch = try #require(first.output.range(of: "batch 1:"))
        #expect(generating.lowerBound < firstBatch.lowerBound, "the seeding line comes before the first batch")
        let batches = try FileManager.default.contentsOfDirectory(atPath: outbox).filter { $0.hasSuffix(".multipart") }
        #expect(!batches.isEmpty)
        let states = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("data/sync").path)
        #expect(states.count == 1)
        let state = folder.appendingPathComponent("data/sync").appendingPathComponent(states.first ?? "none")
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("sync-state.json").path))
        #expect(
            try String(contentsOf: state.appendingPathComponent("destination.txt"), encoding: .utf8).contains(outbox))

        let second = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.contains("nothing to send"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: outbox).filter { $0.hasSuffix(".multipart") }.count
                == batches.count)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("sync-tmp").path).isEmpty)
    }

    /// A store recreated under an existing sync state is sent again in full, and the run says why in one line.
    @Test func aRecreatedStoreIsSentAgainAndTheRunSaysWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        let outbox = folder.appendingPathComponent("outbox").path
        #expect(try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data.path).status == 0)
        // Everything but the sync's own state: the store's files, whichever its format.
        for name in try FileManager.default.contentsOfDirectory(atPath: data.path) where name != "sync" {
            try FileManager.default.removeItem(at: data.appendingPathComponent(name))
        }
        let again = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data.path)
        #expect(again.status == 0, "\(again.errors)")
        let lines = again.output.split(separator: "\n").filter { $0.hasPrefix("sending everything again: ") }
        #expect(lines.count == 1, "\(again.output)")
        #expect(lines.first?.contains("made for store") == true)
        #expect(again.output.contains("sent "), "\(again.output)")
        #expect(!again.output.contains("nothing to send"))
    }

    /// Progress is kept per destination: after a full sync to one outbox, a second outbox still gets everything.
    @Test func aSecondDestinationGetsEverything() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let first = folder.appendingPathComponent("first").path
        let second = folder.appendingPathComponent("second").path
        #expect(try await HealthFlowCommandTests.healthflow("sync", "--to", first, "--data", data).status == 0)
        let run = try await HealthFlowCommandTests.healthflow("sync", "--to", second, "--data", data)
        #expect(run.status == 0, "\(run.errors)")
        #expect(!run.output.contains("nothing to send"))
        let batches = { (outbox: String) in
            try FileManager.default.contentsOfDirectory(atPath: outbox).filter { $0.hasSuffix(".multipart") }.count
        }
        #expect(try batches(second) == batches(first))
        #expect(
            try await HealthFlowCommandTests.healthflow("sync", "--to", first, "--data", data).output.contains(
                "nothing to send"))
    }

    /// The real receiver (Werkzeug and python-multipart agree on every body, each batch matches the documented
    /// schema): the first run uploads the whole generated year, the second finds nothing new, and what the receiver
    /// counted is exactly what the store holds, each sample once.
    @Test func syncToTheReceiverUploadsTheStoreOnceThenNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await withTestReceiver { receiver in
            let url = receiver.uploadURL.absoluteString
            let first = try await HealthFlowCommandTests.healthflow("sync", "--to", url, "--data", data.path)
            #expect(first.status == 0, "\(first.errors)")
            let stats = try await receiver.stats()
            #expect(stats.rejected == 0 && stats.duplicates == 0, "\(receiver.log)")
            #expect(stats.batches > 1)
            #expect(stats.maxCountPerSample == 1)
            #expect(stats.distinctSamples == stats.samples)
            let sent = stats.samples.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
            // The store's setup steps (each a line as it starts and one as it ends), then one progress line per
            // acknowledged batch, then the summary.
            let lines = first.output.split(separator: "\n").drop { $0.hasPrefix("[setup]") || $0.hasPrefix("    ") }
            #expect(first.output.hasPrefix("[setup]    open the durable store"), "\(first.output)")
            #expect(lines.dropLast().allSatisfy { $0.hasPrefix("batch ") }, "\(first.output)")
            #expect(lines.last?.hasPrefix("sent \(sent) samples") == true, "\(first.output)")

            let second = try await HealthFlowCommandTests.healthflow("sync", "--to", url, "--data", data.path)
            #expect(second.status == 0, "\(second.errors)")
            #expect(second.output.contains("nothing to send"))
            #expect(try await receiver.stats() == stats)

            // What the store holds, type by type, is what the receiver counted.
            let types = try stats.samplesByType.keys.map { try #require(HealthObjectType(identifier: $0)) }
            let (stored, uuids) = try await StoreFolders.withStore(in: data) { store in
                try await store.requestAuthorization(toShare: [], read: Set(types.filter { $0.kind != .correlation }))
                var stored: [String: Int] = [:]
                var uuids = Set<UUID>()
                for type in types {
                    let samples = try await store.samples(of: type)
                    stored[type.identifier] = samples.count
                    uuids.formUnion(samples.map(\.uuid))
                }
                return (stored, uuids)
            }
            #expect(stored == stats.samplesByType)
            #expect(Set(try await receiver.sampleCounts().keys) == uuids)
        }
    }

    @Test(arguments: [
        ["--to", "https://"], ["--to", "ftp://example.com"], ["--to", ""], [], ["--to", "http:/127.0.0.1/upload"],
        ["--to", "HTTP:/upload"], ["--to", "http://127.0.0.1:99999/upload"], ["--to", "http://127.0.0.1:0/upload"],
        ["--to", "http://:8080/upload"], ["--to", "mailto:someone@example.com"], ["--to", "/dev/null/outbox"],
    ])
    func aBadDestinationExitsWithStatus2(arguments: [String]) async throws {
        let run = try await HealthFlowCommandTests.healthflow(arguments: ["sync"] + arguments + ["--in-memory"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.errors.split(separator: "\n").count == 1)
        #expect(run.errors.hasPrefix("healthflow sync: "))
    }

    /// Nothing listens on 127.0.0.1:9: every retry meets a refused connection, each is reported, and the command
    /// ends with one error line and status 1 (bounded: the uploader's five attempts back off for seconds at most).
    @Test func anUnreachableServerFailsWithOneLineAndStatusOne() async throws {
        let run = try await HealthFlowCommandTests.healthflow(
            "sync", "--to", "http://127.0.0.1:9/upload", "--in-memory")
        #expect(run.status == 1)
        #expect(run.errors.split(separator: "\n").count == 1)
        // Each failed attempt and the wait before the next is a line of its own: the person waiting sees why.
        let retries = run.output.split(separator: "\n").filter { $0.contains("failed (connection failed") }
        #expect(retries.count == 4, "\(run.output)")
        #expect(
            retries.first?.hasPrefix(
                "batch 1: attempt 1 of 5 failed (connection failed (URLError -1004)) — retry 1 of 4 in ") == true)
    }

    /// `healthflow example observe-and-upload --to URL`: each of the three styles uploads its own batch of the
    /// example's 77 samples to a real server, and the receiver counts them.
    @Test func observeAndUploadExampleUploadsEachStyleToTheReceiver() async throws {
        try await withTestReceiver { receiver in
            let run = try await HealthFlowCommandTests.healthflow(
                "example", "observe-and-upload", "--to", receiver.uploadURL.absoluteString)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("The 3 styles agree."), "\(run.output)")
            let stats = try await receiver.stats()
            #expect(stats.rejected == 0 && stats.duplicates == 0, "\(receiver.log)")
            #expect(stats.batches == 3)
            // The same 77 samples from each style: each UUID arrives three times, under three batch IDs.
            #expect(stats.distinctSamples == 77 && stats.samples == 3 * 77 && stats.maxCountPerSample == 3)
        }
    }

    /// A `sync --in-memory` killed with `kill -9` leaves its scratch folder; the next run removes it — only
    /// folders named exactly as it names them (not a link, not a UUID in small letters) whose lock no live run
    /// holds — and says so.
    @Test func scratchFoldersOfKilledRunsAreRemovedByTheNextRunAndReported() async throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let dead = temporary.appendingPathComponent("healthflow-sync-\(UUID().uuidString)")
        let alive = temporary.appendingPathComponent("healthflow-sync-\(UUID().uuidString)")
        let unlocked = temporary.appendingPathComponent("healthflow-sync-\(UUID().uuidString)")
        let foreign = temporary.appendingPathComponent("healthflow-sync-notes")
        // Look-alikes this command never makes: a UUID in small letters, and a link named as a scratch folder.
        let lowercase = temporary.appendingPathComponent("healthflow-sync-\(UUID().uuidString.lowercased())")
        let linked = temporary.appendingPathComponent("linked")
        let link = temporary.appendingPathComponent("healthflow-sync-\(UUID().uuidString)")
        for folder in [dead, alive, unlocked, foreign, lowercase, linked] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for folder in [dead, alive, foreign, lowercase, linked] {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent("LOCK").path, contents: nil))
        }
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: linked)
        // A live run holds its lock: this process stands in for it.
        let held = open(alive.appendingPathComponent("LOCK").path, O_RDWR)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)

        let outbox = temporary.appendingPathComponent("outbox").path
        let run = try await HealthFlowCommandTests.healthflow(
            arguments: ["sync", "--in-memory", "--to", outbox], environment: ["TMPDIR": temporary.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("removed 1 scratch folder(s) left by interrupted syncs"), "\(run.output)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: temporary.path))
        #expect(
            left == [
                alive.lastPathComponent, unlocked.lastPathComponent, foreign.lastPathComponent,
                lowercase.lastPathComponent, linked.lastPathComponent, link.lastPathComponent, "outbox",
            ])
        #expect(FileManager.default.fileExists(atPath: lowercase.appendingPathComponent("LOCK").path))
        #expect(FileManager.default.fileExists(atPath: linked.appendingPathComponent("LOCK").path))
    }

    /// A scheme in capitals is still http: the URL is normalised once, up front, and the upload goes through.
    @Test func aCapitalisedSchemeIsAcceptedAndUsed() async throws {
        try await withTestReceiver { receiver in
            let url = "HTTP://127.0.0.1:\(receiver.port)/upload"
            let run = try await HealthFlowCommandTests.healthflow(
                "example", "observe-and-upload", "--style", "async", "--to", url)
            #expect(run.status == 0, "\(run.errors)")
            #expect(try await receiver.stats().batches == 1)
        }
    }

    /// Every command that uploads fails when its upload failed: here nothing listens on 127.0.0.1:9.
    @Test func observeAndUploadExitsNonZeroWhenItsUploadFailed() async throws {
        let run = try await HealthFlowCommandTests.healthflow(
            "example", "observe-and-upload", "--style", "async", "--to", "http://127.0.0.1:9/upload")
        #expect(run.status == 1)
        #expect(run.errors.contains("the upload failed"))
    }

    /// `--to DIR` writes the three batches to the chosen outbox.
    @Test func observeAndUploadExampleWritesToAChosenOutbox() async throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outbox) }
        let run = try await HealthFlowCommandTests.healthflow(
            "example", "observe-and-upload", "--style", "async", "--to", outbox.path)
        #expect(run.status == 0, "\(run.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter {
            $0.hasSuffix(".multipart")
        }
        #expect(files.count == 1)
    }

    @Test func helpListsSync() async throws {
        #expect(try await HealthFlowCommandTests.healthflow("--help").output.contains("sync --to URL|DIR"))
        let help = try await HealthFlowCommandTests.healthflow("sync", "--help")
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: healthflow sync --to URL|DIR"))
    }
}
