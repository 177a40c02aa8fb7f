import Foundation

/// An `InputStream` that passes another stream's bytes through and reports each read to an ``UploadReporter``.
///
/// FoundationNetworking (measured here) calls `urlSession(_:task:didSendBodyData:…)` only for delegate-style
/// tasks on a session with a delegate, never for tasks with a completion handler (0 calls, and
/// `countOfBytesSent` stays 0, even with a session or per-task delegate). ``HTTPTransport`` uses completion
/// handlers on the caller's session, so it counts a streamed body's bytes as URLSession reads them: the count
/// runs ahead of the wire by at most libcurl's and the socket's buffers.
///
/// Not `Sendable`: like every stream, it is read by one thread at a time.
final class CountingInputStream: UnbufferedInputStream {
    private let base: InputStream
    private let reporter: UploadReporter

    init(_ base: InputStream, reporter: UploadReporter) {
        self.base = base
        self.reporter = reporter
        super.init()
    }

    override var streamStatus: Stream.Status { base.streamStatus }

    override var streamError: (any Error)? { base.streamError }

    override var hasBytesAvailable: Bool { base.hasBytesAvailable }

    override func open() { base.open() }

    override func close() { base.close() }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        let count = base.read(buffer, maxLength: len)
        if count > 0 { reporter.add(sentBytes: Int64(count)) }
        return count
    }
}
