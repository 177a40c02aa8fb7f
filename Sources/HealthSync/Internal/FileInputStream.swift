import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The system calls whose names the stream's own methods reuse.
private func posixOpen(_ path: UnsafePointer<CChar>) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }
private func posixClose(_ descriptor: Int32) { _ = close(descriptor) }
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// An `InputStream` over a file named by its bytes (``HealthFlow/FileSystemPath``): `open(2)` on `open()`,
/// `read(2)` on each read. `InputStream(url:)` cannot be used for such a file: on Linux the URL has already
/// replaced the bytes that are not UTF-8, and names another file.
///
/// A failed open or read puts the stream in the `error` state; ``failure`` keeps the call and its `errno`, and
/// `streamError` reports it as ``UploadError/bodyUnavailable(_:)``.
///
/// Not `Sendable`: like every stream, it is read by one thread at a time.
final class FileInputStream: UnbufferedInputStream {
    let path: FileSystemPath
    /// How many bytes are read at most: the stream ends there, however long the file is (`nil`: the whole file).
    let limit: Int64?
    /// The call that failed, if one did.
    private(set) var failure: PathCallFailure?
    private var descriptor: Int32 = -1
    private var status = Stream.Status.notOpen
    private var offset: Int64 = 0

    init(path: FileSystemPath, limit: Int64? = nil) {
        self.path = path
        self.limit = limit
        super.init()
    }

    deinit {
        if descriptor >= 0 { posixClose(descriptor) }
    }

    override var streamStatus: Stream.Status { status }

    override var streamError: (any Error)? {
        failure.map { UploadError.bodyUnavailable("\($0.operation) failed for \($0.path) (errno \($0.code))") }
    }

    override var hasBytesAvailable: Bool { status == .open }

    override func open() {
        guard status == .notOpen else { return }
        let opened = path.withCString(posixOpen)
        guard opened >= 0 else { return fail("open", errno) }
        descriptor = opened
        status = .open
    }

    override func close() {
        if descriptor >= 0 { posixClose(descriptor) }
        descriptor = -1
        if status != .error { status = .closed }
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard status == .open else { return status == .atEnd ? 0 : -1 }
        let room = limit.map { Int(clamping: max(0, $0 - offset)) } ?? len
        guard room > 0 else {
            status = .atEnd
            return 0
        }
        while true {
            let count = posixRead(descriptor, buffer, min(len, room))
            if count < 0 {
                if errno == EINTR { continue }
                fail("read", errno)
                return -1
            }
            if count == 0 { status = .atEnd }
            offset += Int64(count)
            return count
        }
    }

    private func fail(_ operation: String, _ code: Int32) {
        failure = PathCallFailure(operation: operation, path: path, code: code)
        status = .error
    }
}
