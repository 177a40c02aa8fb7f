import Foundation

/// A multipart/form-data body (RFC 7578): parts framed by a boundary, with an exact length known up front and
/// content that can be streamed with constant memory.
///
/// The boundary never occurs in a `Data` part's content or in any part's headers: without an explicit
/// boundary, a random one is drawn and, in the (astronomically unlikely) case it occurs, another is drawn, up to
/// eight times; an explicit boundary that occurs throws ``MultipartError/boundaryInContent(boundary:field:)``.
/// Streamed parts are not scanned (that would read them twice); rely on a random boundary for them.
///
/// On Linux, upload with a fresh ``makeInputStream()`` per attempt (as `httpBodyStream`, without a
/// `Content-Length` header: FoundationNetworking would also send chunked encoding) or with ``data()`` for small
/// bodies; ``contentLength`` is still exact, for progress and for `Data` uploads.
public struct MultipartBody: Sendable {
    /// The parts, in order.
    public let parts: [MultipartPart]

    /// The boundary between parts.
    public let boundary: MultipartBoundary

    /// How many times a random boundary is redrawn when it occurs in content.
    private static let maximumBoundaryDraws = 8

    /// Makes a body with a random boundary that occurs in no `Data` part and no header.
    ///
    /// - Parameter parts: the fields, in order (may be empty).
    /// - Throws: ``MultipartError/boundaryInContent(boundary:field:)`` only if eight random boundaries all occur.
    public init(parts: [MultipartPart]) throws(MultipartError) {
        // A generator with a stored field: the zero-sized SystemRandomNumberGenerator passed inout has the one
        // address Swift gives every empty value, which ThreadSanitizer reports as a race between threads.
        var generator = SystemRandomSource()
        try self.init(parts: parts, randomBoundaryUsing: &generator)
    }

    /// Makes a body with a random boundary drawn from `generator`, redrawn while it occurs in content.
    ///
    /// - Parameters:
    ///   - parts: the fields, in order.
    ///   - generator: the source of randomness (a seeded one makes tests reproducible).
    /// - Throws: ``MultipartError/boundaryInContent(boundary:field:)`` if eight draws all occur in content.
    public init(parts: [MultipartPart], randomBoundaryUsing generator: inout some RandomNumberGenerator)
        throws(MultipartError)
    {
        var collision: (boundary: MultipartBoundary, field: String)?
        for _ in 0..<Self.maximumBoundaryDraws {
            let candidate = MultipartBoundary.random(using: &generator)
            if let field = Self.fieldContaining(candidate, in: parts) {
                collision = (candidate, field)
                continue
            }
            self.parts = parts
            self.boundary = candidate
            return
        }
        let last = collision ?? (MultipartBoundary.random(using: &generator), "")
        throw .boundaryInContent(boundary: last.boundary.value, field: last.field)
    }

    /// Makes a body with a boundary you chose, checked against every `Data` part and every header.
    ///
    /// - Parameters:
    ///   - parts: the fields, in order.
    ///   - boundary: the boundary to use.
    /// - Throws: ``MultipartError/boundaryInContent(boundary:field:)`` naming the first field that contains it.
    public init(parts: [MultipartPart], boundary: MultipartBoundary) throws(MultipartError) {
        if let field = Self.fieldContaining(boundary, in: parts) {
            throw .boundaryInContent(boundary: boundary.value, field: field)
        }
        self.parts = parts
        self.boundary = boundary
    }

    /// The value of the request's `Content-Type` header.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary.value)"
    }

    /// The exact number of bytes the body has, computed from the headers and declared part lengths without
    /// reading any content.
    ///
    /// - Complexity: O(number of parts).
    public var contentLength: Int64 {
        segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): total + Int64(data.count)
            case .stream(_, let length, _): total + length
            }
        }
    }

    /// A fresh, unopened stream of the whole body. Each call starts from the beginning (and calls each streamed
    /// part's `makeStream` again), so every upload attempt gets its own stream.
    ///
    /// The stream holds only the small header blocks and the `Data` parts; streamed parts are copied from their
    /// source straight into the reader's buffer, so a part of any size is read with constant memory.
    ///
    /// - Returns: a stream that reports a ``MultipartError`` as its `streamError` when a source fails.
    public func makeInputStream() -> InputStream {
        MultipartInputStream(segments: segments)
    }

    /// The whole body in memory: for small bodies and `Data` uploads.
    ///
    /// - Returns: exactly ``contentLength`` bytes.
    /// - Throws: ``MultipartError/sourceFailed(field:reason:)`` or
    ///   ``MultipartError/sourceLengthMismatch(field:declared:delivered:)`` when a streamed part misbehaves.
    public func data() throws(MultipartError) -> Data {
        let stream = MultipartInputStream(segments: segments)
        stream.open()
        defer { stream.close() }
        // A streamed part's declared length is not trusted with memory before its bytes arrive: reserve at most
        // 1 MiB up front and let the rest grow with what is read.
        var output = Data(capacity: Int(clamping: min(contentLength, 1 << 20)))
        let chunkSize = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { buffer.deallocate() }
        while true {
            let count = stream.read(buffer, maxLength: chunkSize)
            if count == 0 { return output }
            guard count > 0 else {
                throw stream.failure ?? .sourceFailed(field: "", reason: "the body stream failed")
            }
            output.append(buffer, count: count)
        }
    }

    /// The body as a list of byte runs: header blocks and delimiters (small `Data`), and part contents.
    var segments: [MultipartInputStream.Segment] {
        var segments: [MultipartInputStream.Segment] = []
        segments.reserveCapacity(parts.count * 2 + 1)
        for (index, part) in parts.enumerated() {
            var head = Data((index == 0 ? "" : "\r\n").utf8)
            head += Data("--\(boundary.value)\r\n".utf8)
            head += part.headerBytes
            segments.append(.bytes(head))
            switch part.content {
            case .data(let data): segments.append(.bytes(data))
            case .stream(let length, let makeStream):
                segments.append(.stream(field: part.name, length: length, makeStream: makeStream))
            }
        }
        segments.append(.bytes(Data(((parts.isEmpty ? "" : "\r\n") + "--\(boundary.value)--\r\n").utf8)))
        return segments
    }

    /// The name of the first part whose headers or `Data` content contain the boundary text.
    private static func fieldContaining(_ boundary: MultipartBoundary, in parts: [MultipartPart]) -> String? {
        let needle = Data(boundary.value.utf8)
        for part in parts {
            if contains(needle, in: part.headerBytes) { return part.name }
            if case .data(let data) = part.content, contains(needle, in: data) { return part.name }
        }
        return nil
    }

    /// Whether `needle` (non-empty) occurs in `haystack`: `memchr` for the first byte, `memcmp` for the rest.
    static func contains(_ needle: Data, in haystack: Data) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let hayBase = hay.baseAddress, let pinBase = pin.baseAddress else { return false }
                let first = Int32(pin[0])
                let last = hay.count - pin.count
                var start = 0
                while start <= last {
                    guard let hit = memchr(hayBase + start, first, last - start + 1) else { return false }
                    if memcmp(hit, pinBase, pin.count) == 0 { return true }
                    start = hayBase.distance(to: UnsafeRawPointer(hit)) + 1
                }
                return false
            }
        }
    }
}

/// The system's random numbers through a generator that is not empty (see `MultipartBody.init(parts:)`).
struct SystemRandomSource: RandomNumberGenerator {
    private var system = SystemRandomNumberGenerator()
    /// How many numbers were drawn; it gives the value a size, so its address is its own.
    private(set) var draws = 0

    mutating func next() -> UInt64 {
        draws += 1
        return system.next()
    }
}
