import CZlib
import Foundation

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

    /// The CRC-32 of the whole file at `url`, read in 64 KiB runs.
    static func ofFile(at url: URL) throws(SyncEngineError) -> UInt32 {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .pendingBatchMissing(path: url.path) }
            throw .pendingBatchCorrupt(path: url.path, reason: "cannot be opened (errno \(errno))")
        }
        defer { close(descriptor) }
        var checksum = PendingBodyChecksum()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .pendingBatchCorrupt(path: url.path, reason: "cannot be read (errno \(errno))")
            }
            if count == 0 { return checksum.value }
            buffer.withUnsafeBytes { checksum.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Eight lower-case hex digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
