import FlowKit
import Foundation

/// An `InputStream` that passes another stream's bytes through, reports each read to an ``UploadReporter``, and
/// keeps the error of a read that failed in a ``BodyFailure``.
///
/// The count runs ahead of the wire by at most libcurl's and the socket's buffers. The kept error matters
/// because URLSession turns a failed body read into a plain connection error (URLError −1), which would be
/// retried as if the network had failed; ``HTTPTransport`` reports the body's own error instead, never retried.
///
/// Not `Sendable`: like every stream, it is read by one thread at a time.
final class CountingInputStream: UnbufferedInputStream {
    private let base: InputStream
    private let reporter: UploadReporter
    private let failure: BodyFailure

    init(_ base: InputStream, reporter: UploadReporter, failure: BodyFailure) {
        self.base = base
        self.reporter = reporter
        self.failure = failure
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
        if count < 0 {
            failure.record(base.streamError ?? UploadError.bodyUnavailable("the body's stream failed without an error"))
        }
        return count
    }
}

/// The first error a request body's source reported, shared between the stream URLSession reads and the
/// transport's completion.
///
/// - Note: `Sendable`: its one value is kept in a `LockedState`.
final class BodyFailure: Sendable {
    private let error = LockedState<(any Error)?>(nil)

    /// Keeps `failure` unless an earlier one is kept.
    func record(_ failure: any Error) {
        error.withLock { if $0 == nil { $0 = failure } }
    }

    /// The kept error.
    var recorded: (any Error)? { error.withLock { $0 } }
}
