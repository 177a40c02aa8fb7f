import Foundation
import HealthFlow

/// Samples set aside on disk until the end of the export — the top-level blood-pressure and nutrition
/// records, written only if no correlation holds them — so memory does not grow with their number. Chunks of
/// ``chunkSamples`` samples in the durable store's checksummed binary form (`SampleChunk`) in a private
/// temporary file (mode 0600) that is unlinked as soon as it is opened: the open handle keeps it until the spool
/// is released, and nothing is left behind however the process ends (a crash or a kill included).
///
/// Memory holds one chunk of samples being gathered, and one being read back.
final class HeldSampleSpool {
    /// Samples gathered before a chunk is written.
    static let chunkSamples = 4096

    /// Where the file was made (it has no name once opened): errors name it.
    let path: String
    /// The file, readable and writable; internal so that tests can damage it.
    let handle: FileHandle
    private var pending: [HealthSample] = []
    private(set) var count = 0

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("healthflow-import-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forUpdatingAtPath: path)
        else { throw HealthExportError.io(path: path, operation: "create", errno: errno) }
        self.handle = handle
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
            throw HealthExportError.io(path: path, operation: "unlink", errno: errno)
        }
        pending.reserveCapacity(Self.chunkSamples)
    }

    deinit {
        try? handle.close()
    }

    func append(_ sample: HealthSample) throws {
        pending.append(sample)
        count += 1
        if pending.count == Self.chunkSamples { try writePending() }
    }

    /// Calls `body` with every sample in the order appended, reading the file a chunk at a time.
    /// - Throws: ``HealthExportError/io(path:operation:errno:)`` when the file cannot be read, or reads back other
    ///   bytes than were written (`EIO`, operation "read back held records"); `body`'s error.
    func forEach(_ body: (HealthSample) throws -> Void) throws {
        try writePending()
        try handle.seek(toOffset: 0)
        while let header = try readExactly(SampleChunk.headerSize, allowingEnd: true) {
            let payload = try readExactly(SampleChunk.payloadLength(header: header), allowingEnd: false) ?? []
            let samples: [HealthSample]
            do {
                samples = try SampleChunk.decode(header: header, payload: payload)
            } catch {
                throw HealthExportError.io(
                    path: path, operation: "read back held records (\(error.reason))", errno: EIO)
            }
            for sample in samples { try body(sample) }
        }
    }

    /// `count` bytes from the file's position; `nil` at its end when `allowingEnd` (a chunk's start). Read at most
    /// 1 MiB at a time, so a damaged length costs no more memory than the file holds.
    /// - Throws: `EIO` when the file ends inside a chunk.
    private func readExactly(_ count: Int, allowingEnd: Bool) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < count {
            guard let read = try handle.read(upToCount: min(count - bytes.count, 1 << 20)), !read.isEmpty else {
                if bytes.isEmpty, allowingEnd { return nil }
                throw HealthExportError.io(
                    path: path, operation: "read back held records (the file ends early)", errno: EIO)
            }
            bytes.append(contentsOf: read)
        }
        return bytes
    }

    private func writePending() throws {
        guard !pending.isEmpty else { return }
        try handle.seekToEnd()
        try handle.write(contentsOf: SampleChunk.encode(pending))
        pending.removeAll(keepingCapacity: true)
    }
}
