import CZlib
import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The running CRC-32 (zlib's `crc32`) of a pending batch body: computed while the body is persisted, checked
/// before the body is re-sent, so a file damaged at rest is reported instead of uploaded.
struct PendingBodyChecksum {
    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var rest = bytes.count
        var pointer = base.assumingMemoryBound(to: Bytef.self)
        var crc = uLong(value)
        // zlib's length parameter is a uInt: feed very large runs in slices.
        while rest > 0 {
            let slice = min(rest, Int(Int32.max))
            crc = crc32(crc, pointer, uInt(slice))
            pointer += slice
            rest -= slice
        }
        value = UInt32(truncatingIfNeeded: crc)
    }

    /// The CRC-32 of the first `length` bytes of the file at `path`, read in 64 KiB runs.
    static func ofFile(at path: FileSystemPath, length: Int64) throws(SyncEngineError) -> UInt32 {
        let file = FileInputStream(path: path, limit: length)
        var checksum = PendingBodyChecksum()
        do {
            try UploadBody.forEachChunk(of: file, chunkSize: 64 * 1024) { checksum.update($0) }
        } catch {
            let failure = file.failure
            if failure?.operation == "open" && failure?.code == ENOENT {
                throw .pendingBatchMissing(path: path.description)
            }
            let verb = failure?.operation == "open" ? "opened" : "read"
            throw .pendingBatchCorrupt(
                path: path.description, reason: "cannot be \(verb) (errno \(failure?.code ?? 0))")
        }
        return checksum.value
    }

    /// Eight lower-case hex digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
