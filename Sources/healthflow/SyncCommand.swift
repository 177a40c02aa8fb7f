import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import HealthSync

/// `healthflow sync --to URL|DIR [--data DIR [--repair] | --in-memory]`: sends what changed in the demo's store
/// since the last acknowledged batch to a server (HTTP, through the retrying ``Uploader``) or an outbox directory,
/// through ``SyncEngine``.
///
/// The store is the one the demo uses, opened (and seeded when new) by ``DemoStore``. Each destination has its
/// own sync state in the data folder, `sync/<hash of the destination>/` (`sync-state.json`, a private `sync-tmp`
/// folder, `destination.txt`); the device ID is `sync-device-id` in the data folder. Folders are paths of bytes:
/// an outbox or data folder whose name is not UTF-8 is used where it is.
struct SyncCommand: Command {
    let name = "sync"
    let summary =
        "Send every sample and deletion recorded since the last sync, as gzip'd JSON in multipart bodies, to an "
        + "HTTP(S) endpoint or an outbox directory; a second run sends only what is new. Uses the demo's store."
    let usage = ["--to URL|DIR [--data DIR [--repair] | --in-memory]"]
    let discussion = """
        Sends every sample and deletion recorded since the last sync, as gzip'd JSON batches in multipart bodies,
        to an HTTP(S) URL (POST, an Idempotency-Key per batch, retries with back-off on connection loss, 408, 429
        and 5xx, honouring Retry-After) or to the outbox directory DIR (one file per batch, named by its batch
        ID; a re-sent batch is stored once).
        The store is the demo's (see 'healthflow demo --help'); a new store gets the demo's generated year first.
        The sync state (per-type anchors, the batch in flight) is kept per destination in the data folder, so a
        second run to the same destination sends only what is new ("nothing to send" when nothing is), and a new
        destination gets everything. A batch interrupted by a crash is re-sent with the same batch ID by the next
        run. One line is printed per batch as it is acknowledged (its number, sample count and size), one per
        failed attempt with the wait before the next, then a summary.
        """
    let options = [to] + DataLocation.options
    let failsWhen = "the store cannot be opened or the sync fails"

    /// `--to URL|DIR`, also `example observe-and-upload`'s.
    static let to = CommandOption.value(
        "--to", "URL|DIR",
        help: "an http:// or https:// endpoint (with a host, port 1-65535) that accepts multipart POSTs, or the "
            + "outbox directory (created 0700 when missing; write ./NAME for a NAME with a colon)")

    /// How uploads to a server are retried (the library's default policy).
    static let retryPolicy = UploadRetryPolicy()

    /// A wait as people read it: "4.0 s".
    static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return String(format: "%.1f s", Double(whole) + Double(fraction) / 1e18)
    }

    /// The types synced: every sample type in the catalog the batch format carries.
    static let types = HealthObjectType.allTypes.filter {
        [.quantity, .category, .correlation, .electrocardiogram, .workout, .heartbeatSeries].contains($0.kind)
    }

    func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode {
        guard let to = arguments.value(Self.to) else { throw ArgumentError("missing --to URL|DIR") }
        let destination = try Destination.parse(to).get()
        let location = try DataLocation.parse(arguments)
        do {
            let report = try await Self.sync(to: destination, location: location)
            if let restart = report.restart {
                print("sending everything again: \(restart); the receiver drops what it already has")
            }
            if report.isEmpty {
                print("nothing to send: \(destination) is up to date")
            } else {
                print(
                    "sent \(grouped(report.totalSamples)) samples and \(grouped(report.totalDeletions)) deletions "
                        + "of \(Set(report.samples.keys).union(report.deletions.keys).count) types in "
                        + "\(report.batches) batch\(report.batches == 1 ? "" : "es") (\(grouped(Int(report.bytes))) bytes) "
                        + "to \(destination)"
                        + (report.duplicates > 0 ? "; \(report.duplicates) already delivered" : ""))
            }
            return .success
        } catch let failure as DemoStore.Failure {
            for line in failure.lines { Self.fail(line) }
            return .failure
        } catch {
            Self.fail("error: \(error)")
            return .failure
        }
    }

    static func sync(to destination: Destination, location: DataLocation) async throws -> SyncReport {
        let transport = try destination.transport()
        if let outbox = transport as? OutboxTransport {
            for name in outbox.removedLeftovers {
                print("removed \(name) from the outbox: a batch an interrupted sync left unfinished (it is sent again)")
            }
        }
        // Opening and seeding print as they go: generating an in-memory year takes seconds.
        let opened = try await DemoStore.open(location, trace: DemoTrace(output: StandardOutput())) { print($0) }
        defer { opened.close() }
        let store = opened.store
        let stateFolder: FileSystemPath
        let deviceFolder: FileSystemPath
        var scratch: ScratchFolder?
        defer { scratch?.remove() }
        switch location {
        case .inMemory:
            let folder = try ScratchFolder(prefix: "healthflow-sync-")
            scratch = folder
            if folder.removedLeftovers > 0 {
                print("removed \(folder.removedLeftovers) scratch folder(s) left by interrupted syncs")
            }
            stateFolder = folder.path
            deviceFolder = stateFolder
        case .directory(let directory, _):
            stateFolder = destination.stateFolder(in: directory)
            deviceFolder = directory
        }
        try stateFolder.makeFolders(mode: 0o700)
        try stateFolder.appending("destination.txt").writeContents(destination.key + [UInt8(ascii: "\n")], mode: 0o600)
        // Correlations are read through their member types' authorization (HealthKit's rule).
        try await store.requestAuthorization(toShare: [], read: Set(types.filter { $0.kind != .correlation }))
        let engine = try SyncEngine(
            store: store, types: types,
            anchorStore: AnchorStore(path: stateFolder.appending("sync-state.json")),
            transport: transport, deviceID: try deviceID(in: deviceFolder),
            tempFolderPath: stateFolder.appending("sync-tmp"))
        let run = engine.observedSync()
        var bytes: Int64 = 0
        var number = 0
        for await event in run.events {
            switch event {
            case .batchStarted(let started, _, _, let size):
                bytes = size
                number = started
            case .batchCommitted(let number, _, let samples, let disposition):
                // One line per batch: counts and sizes only, never a health value.
                print(
                    "batch \(number): \(grouped(samples)) samples and deletions, \(grouped(Int(bytes))) bytes"
                        + (disposition == .duplicate ? " (already delivered)" : ""))
            case .upload(.retryScheduled(let attempt, let delay, let reason)):
                // One line per failed attempt and the wait before the next: the reason, never a health value.
                print(
                    "batch \(number): attempt \(attempt) of \(retryPolicy.attempts) failed (\(reason)) — "
                        + "retry \(attempt) of \(retryPolicy.attempts - 1) in \(seconds(delay))")
            case .upload, .finished, .failed: break
            }
        }
        let report = try await run.value
        try opened.checkUndamaged(in: location)
        return report
    }

    /// An opaque, random device ID kept in `sync-device-id` in the data folder, made when there is no such file.
    /// A file that cannot be read or holds no UUID stops the sync and is kept: a new ID would make the receiver
    /// see a new device.
    static func deviceID(in folder: FileSystemPath) throws -> String {
        let file = folder.appending("sync-device-id")
        let stored: [UInt8]?
        do throws(PathCallFailure) {
            stored = try file.readContents()
        } catch  where error.code == ENOENT {
            stored = nil
        } catch {
            throw CommandFailure("cannot read the device ID file \(file): \(error)")
        }
        if let stored {
            let text = String(decoding: stored, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let id = UUID(uuidString: text) else {
                throw CommandFailure("the device ID file \(file) holds no UUID; fix or remove it to make a new ID")
            }
            return id.uuidString
        }
        let id = UUID().uuidString
        do throws(PathCallFailure) {
            try file.writeContents(Array((id + "\n").utf8), mode: 0o600)
        } catch {
            throw CommandFailure("cannot write the device ID file \(file): \(error)")
        }
        return id
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data("healthflow sync: \(message)\n".utf8))
    }
}
