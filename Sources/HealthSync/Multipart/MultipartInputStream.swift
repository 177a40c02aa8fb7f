import Foundation

/// The `InputStream` that ``MultipartBody/makeInputStream()`` returns: it walks the body's segments and copies
/// each into the reader's buffer, opening a streamed part's source only when reading reaches it and closing it as
/// soon as its declared length has been read. Nothing is buffered beyond the body's small header blocks.
///
/// It follows `InputStream`'s contract as FoundationNetworking uses it: `notOpen` → `open()` → `open` →
/// `atEnd` once every byte has been read (then `read` returns 0 and `hasBytesAvailable` is false) or `error`
/// (then `read` returns -1 and `streamError` is a ``MultipartError``); `close()` → `closed`.
///
/// Not `Sendable`: like every stream, it is read by one thread at a time.
final class MultipartInputStream: UnbufferedInputStream {
    /// A run of body bytes.
    enum Segment: Sendable {
        case bytes(Data)
        case stream(field: String, length: Int64, makeStream: @Sendable () -> InputStream?)
    }

    private let segments: [Segment]
    private var index = 0
    /// Bytes of `segments[index]` already delivered.
    private var offset: Int64 = 0
    /// The open source of the current streamed segment.
    private var source: InputStream?
    private var status: Stream.Status = .notOpen
    /// Why the stream is in the `error` state.
    private(set) var failure: MultipartError?

    init(segments: [Segment]) {
        self.segments = segments
        super.init()
    }

    override var streamStatus: Stream.Status { status }

    override var streamError: (any Error)? { failure }

    override var hasBytesAvailable: Bool { status == .open }

    override func open() {
        guard status == .notOpen else { return }
        status = segments.isEmpty ? .atEnd : .open
    }

    override func close() {
        source?.close()
        source = nil
        if status != .notOpen { status = .closed }
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        switch status {
        case .open: break
        case .atEnd: return 0
        default: return -1
        }
        var filled = 0
        do throws(MultipartError) {
            while filled < len, index < segments.count {
                filled += try readSegment(into: buffer + filled, maxLength: len - filled)
            }
        } catch {
            fail(error)
            return -1
        }
        if index == segments.count { status = .atEnd }
        return filled
    }

    /// Copies up to `len` bytes of the current segment, advancing to the next segment when it is exhausted.
    private func readSegment(into buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) throws(MultipartError)
        -> Int
    {
        switch segments[index] {
        case .bytes(let data):
            let start = data.startIndex + Int(offset)
            let count = min(len, data.endIndex - start)
            if count > 0 {
                data.copyBytes(to: buffer, from: start..<start + count)
                offset += Int64(count)
            }
            if offset == Int64(data.count) { advance() }
            return count
        case .stream(let field, let length, let makeStream):
            let input = try openSource(field: field, makeStream: makeStream)
            let wanted = Int(min(Int64(len), length - offset))
            var count = 0
            if wanted > 0 {
                count = input.read(buffer, maxLength: wanted)
                if count < 0 { throw .sourceFailed(field: field, reason: Self.describeFailure(of: input)) }
                if count == 0 { throw .sourceLengthMismatch(field: field, declared: length, delivered: offset) }
                offset += Int64(count)
            }
            if offset == length {
                // One byte more would mean the declared length was wrong and the body would be misframed.
                var extra: UInt8 = 0
                if input.read(&extra, maxLength: 1) > 0 {
                    throw .sourceLengthMismatch(field: field, declared: length, delivered: length + 1)
                }
                input.close()
                source = nil
                advance()
            }
            return count
        }
    }

    private func openSource(field: String, makeStream: @Sendable () -> InputStream?) throws(MultipartError)
        -> InputStream
    {
        if let source { return source }
        guard let input = makeStream() else {
            throw .sourceFailed(field: field, reason: "makeStream returned nil")
        }
        input.open()
        if input.streamStatus == .error {
            throw .sourceFailed(field: field, reason: Self.describeFailure(of: input))
        }
        source = input
        return input
    }

    /// Why a source failed. `streamError` is read only in the `error` state: on swift-corelibs-foundation an
    /// `InputStream` subclass that does not override it traps when it is read.
    private static func describeFailure(of input: InputStream) -> String {
        guard input.streamStatus == .error else { return "read returned -1 in state \(input.streamStatus)" }
        return input.streamError.map { "\($0)" } ?? "the stream reported an error without a description"
    }

    private func advance() {
        index += 1
        offset = 0
    }

    private func fail(_ error: MultipartError) {
        source?.close()
        source = nil
        failure = error
        status = .error
    }
}
