import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import HealthSync

/// `healthflow sync --to URL|DIR [--data DIR | --in-memory]`: sends what changed in the demo's store since the
/// last acknowledged batch to a server (HTTP, through the retrying ``Uploader``) or an outbox directory, through
/// ``SyncEngine``.
///
/// The store is the one the demo uses (``DataLocation``); a new store gets the demo's generated year first. Each
/// destination has its own sync state in the data folder, `sync/<hash of the destination>/` (`sync-state.json`,
/// a private `sync-tmp` folder, `destination.txt`); the device ID is `sync-device-id` in the data folder. Folders
/// are paths of bytes: an outbox or data folder whose name is not UTF-8 is used where it is.
enum SyncCommand {
    /// Where batches go.
    enum Destination: CustomStringConvertible {
        case server(URL)
        case outbox(FileSystemPath)

        var description: String {
            switch self {
            case .server(let url): url.absoluteString
            case .outbox(let path): path.description
            }
        }

        /// An http(s) URL (a server) or a directory path (an outbox), decided once, before any work.
        ///
        /// A value that starts with a scheme (`letters:`) is a URL and must be `http://` or `https://` (any case)
        /// with a host and, when given, a port in 1…65535: `http:/host/x`, `ftp://…` or port 99999 are refused, never
        /// taken for a folder. Anything else is a folder path: an existing directory, or one that can be created
        /// (its nearest existing parent is a writable directory), taken byte for byte. A folder whose name starts
        /// with `letters:` is written `./name`.
        static func parse(_ destination: CommandArgument) -> Result<Destination, ArgumentError> {
            guard !destination.bytes.isEmpty else {
                return .failure(ArgumentError("missing --to URL|DIR"))
            }
            if destination.description.wholeMatch(of: /[A-Za-z][A-Za-z0-9+.\-]*:.*/) != nil {
                return parseURL(destination.description)
            }
            return parseFolder(destination)
        }

        private static func parseURL(_ value: String) -> Result<Destination, ArgumentError> {
            let expected = "--to takes an http(s) URL such as http://host:8080/upload, or a directory"
            guard var components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https"
            else {
                return .failure(ArgumentError("\(expected), not '\(value)'"))
            }
            guard value.dropFirst(scheme.count + 1).hasPrefix("//"), let host = components.host, !host.isEmpty else {
                return .failure(ArgumentError("--to \(value) has no host; \(expected)"))
            }
            if let port = components.port, !(1...65_535).contains(port) {
                return .failure(ArgumentError("--to \(value): port \(port) is not in 1…65535"))
            }
            components.scheme = scheme
            guard let url = components.url else {
                return .failure(ArgumentError("--to \(value) is not a valid URL; \(expected)"))
            }
            return .success(.server(url))
        }

        private static func parseFolder(_ value: CommandArgument) -> Result<Destination, ArgumentError> {
            let path = RawCommandLine.absolute(value.path)
            var info = stat()
            if path.withCString({ stat($0, &info) }) == 0 {
                return info.st_mode & S_IFMT == S_IFDIR
                    ? .success(.outbox(path)) : .failure(ArgumentError("--to \(value) is a file, not a directory"))
            }
            var parent = path.parent
            while parent.withCString({ stat($0, &info) }) != 0 {
                parent = parent.parent
            }
            guard info.st_mode & S_IFMT == S_IFDIR, parent.withCString({ access($0, W_OK) }) == 0 else {
                return .failure(
                    ArgumentError("--to \(value) cannot be created: \(parent) is not a writable directory"))
            }
            return .success(.outbox(path))
        }

        /// The destination as one canonical run of bytes: the server's URL, or the outbox's absolute path.
        var key: [UInt8] {
            switch self {
            case .server(let url): Array(("server " + url.absoluteString).utf8)
            case .outbox(let path): Array("outbox ".utf8) + path.lexicallyNormalized().bytes
            }
        }

        /// The folder, inside the data folder, that keeps this destination's sync state: anchors move per
        /// destination, so a second destination gets everything. Named by a 64-bit FNV-1a hash of ``key``; the
        /// key itself is written beside the state, in `destination.txt`.
        func stateFolder(in dataFolder: FileSystemPath) -> FileSystemPath {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in key {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            let hex = String(hash, radix: 16)
            return dataFolder.appending("sync").appending(String(repeating: "0", count: 16 - hex.count) + hex)
        }

        /// The transport for this destination: the retrying uploader over HTTP, or the outbox folder.
        func transport() throws -> any UploadTransport {
            switch self {
            case .server(let url):
                Uploader(transport: HTTPTransport(url: url), policy: retryPolicy, scheduler: DispatchScheduler())
            case .outbox(let directory): try OutboxTransport(directoryPath: directory)
            }
        }
    }

    static let usage = """
        USAGE: healthflow sync --to URL|DIR [--data DIR [--repair] | --in-memory]

        Sends every sample and deletion recorded since the last sync, as gzip'd JSON batches in multipart bodies,
        to an HTTP(S) URL (POST, an Idempotency-Key per batch, retries with back-off on connection loss, 408, 429
        and 5xx, honouring Retry-After) or to the outbox directory DIR (one file per batch, named by its batch
        ID; a re-sent batch is stored once).
        The store is the demo's (see 'healthflow demo --help'); a new store gets the demo's generated year first.
        The sync state (per-type anchors, the batch in flight) is kept per destination in the data folder, so a
        second run to the same destination sends only what is new ("nothing to send" when nothing is), and a new
        destination gets everything. A batch interrupted by a crash is
        re-sent with the same batch ID by the next run. One line is printed per batch as it is acknowledged
        (its number, sample count and size), one per failed attempt with the wait before the next, then a summary.

        OPTIONS:
          --to URL      an http:// or https:// endpoint (with a host, port 1-65535) that accepts multipart POSTs
          --to DIR      the outbox directory (created 0700 when missing; write ./NAME for a NAME with a colon)
          --data DIR    keep the store in DIR instead of the per-user folder
          --in-memory   sync a fresh in-memory store (its state is discarded after the run)
          --repair      open a damaged store keeping what is readable: every loss is printed, the damaged files
                        are moved into the store's damaged/ folder (without it, damage stops the run, exit 1)

        Exit status: 0 on success, 1 when the sync fails, 2 for bad arguments.
        """

    /// How uploads to a server are retried (the library's default policy).
    static let retryPolicy = UploadRetryPolicy()

    /// A wait as people read it: "4.0 s".
    static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return String(format: "%.1f s", Double(whole) + Double(fraction) / 1e18)
    }

    /// The types synced: every sample type in the catalog the batch format carries.
    static let types = HealthObjectType.allTypes.filter {
        [.quantity, .category, .correlation, .electrocardiogram].contains($0.kind)
    }

    static func run(_ arguments: [CommandArgument]) async -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h" {
            print(usage)
            return 0
        }
        let outbox: Destination
        let location: DataLocation
        switch parse(arguments) {
        case .success(let parsed): (outbox, location) = parsed
        case .failure(let error):
            fail("\(error); see 'healthflow sync --help'")
            return 2
        }
        do {
            let report = try await sync(to: outbox, location: location)
            if let restart = report.restart {
                print("sending everything again: \(restart); the receiver drops what it already has")
            }
            if report.isEmpty {
                print("nothing to send: \(outbox) is up to date")
            } else {
                print(
                    "sent \(grouped(report.totalSamples)) samples and \(grouped(report.totalDeletions)) deletions "
                        + "of \(Set(report.samples.keys).union(report.deletions.keys).count) types in "
                        + "\(report.batches) batch\(report.batches == 1 ? "" : "es") (\(grouped(Int(report.bytes))) bytes) "
                        + "to \(outbox)"
                        + (report.duplicates > 0 ? "; \(report.duplicates) already delivered" : ""))
            }
            return 0
        } catch let failure as StoreOpeningFailure {
            fail("error: cannot open the store: \(failure.error)")
            for line in StoreOpening.hint(for: failure.error, directory: failure.directory) { fail(line) }
            return 1
        } catch {
            fail("error: \(error)")
            return 1
        }
    }

    /// The store could not be opened (told apart from a failed sync, so the CLI can suggest `--repair`).
    struct StoreOpeningFailure: Error {
        let error: FileStoreError
        let directory: FileSystemPath
    }

    /// `--to VALUE` plus the demo's data options; other URL schemes, empty values and files are refused.
    static func parse(_ arguments: [CommandArgument]) -> Result<(Destination, DataLocation), ArgumentError> {
        var rest: [CommandArgument] = []
        var destination: CommandArgument?
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--to" {
                guard destination == nil, index + 1 < arguments.count else {
                    return .failure(ArgumentError("--to needs exactly one URL or directory"))
                }
                destination = arguments[index + 1]
                index += 2
            } else {
                rest.append(arguments[index])
                index += 1
            }
        }
        guard let destination else {
            return .failure(ArgumentError("missing --to URL|DIR"))
        }
        return Destination.parse(destination).flatMap { parsed in DataLocation.parse(rest).map { (parsed, $0) } }
    }

    static func sync(to destination: Destination, location: DataLocation) async throws -> SyncReport {
        let transport = try destination.transport()
        let store: any HealthStore
        let durable: FileHealthStore?
        let stateFolder: FileSystemPath
        let deviceFolder: FileSystemPath
        var scratch: ScratchFolder?
        switch location {
        case .inMemory:
            let memory = InMemoryHealthStore(configuration: ExampleContext.app)
            try memory.ingest(try DemoSeed.year())
            store = memory
            durable = nil
            let folder = try ScratchFolder(prefix: "healthflow-sync-")
            scratch = folder
            if folder.removedLeftovers > 0 {
                print("removed \(folder.removedLeftovers) scratch folder(s) left by interrupted syncs")
            }
            stateFolder = folder.path
            deviceFolder = stateFolder
        case .directory(let directory, let repair):
            let file: FileHealthStore
            do throws(FileStoreError) {
                file = try StoreOpening.open(directory, repair: repair)
            } catch {
                throw StoreOpeningFailure(error: error, directory: directory)
            }
            for warning in StoreOpening.warnings(file.recovery) { print(warning) }
            if DemoSeed.needsSeeding(file) {
                do {
                    try DemoSeed.seed(file, with: try DemoSeed.year())
                } catch {
                    file.close()
                    throw error
                }
            }
            store = file
            durable = file
            stateFolder = destination.stateFolder(in: directory)
            deviceFolder = directory
        }
        defer {
            durable?.close()
            scratch?.remove()
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
        return try await run.value
    }

    /// An opaque, random device ID kept in `sync-device-id` in the data folder (made on first use).
    static func deviceID(in folder: FileSystemPath) throws -> String {
        let file = folder.appending("sync-device-id")
        if let stored = try? file.readContents(),
            let id = UUID(
                uuidString: String(decoding: stored, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return id.uuidString
        }
        let id = UUID().uuidString
        do throws(PathCallFailure) {
            try file.writeContents(Array((id + "\n").utf8), mode: 0o600)
        } catch {
            throw ArgumentError("cannot write the device ID file \(file): \(error)")
        }
        return id
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data("healthflow sync: \(message)\n".utf8))
    }
}
