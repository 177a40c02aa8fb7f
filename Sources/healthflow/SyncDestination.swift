import FlowKit
import Foundation
import HealthFlow
import HealthSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SyncCommand {
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
}
