import Foundation

/// Reads one HTTP/1.x response from the bytes of a connection, as they arrive: interim heads (`100 Continue`
/// and other 1xx but 101) are counted and skipped, then the final head, then the body, framed by
/// `Transfer-Encoding: chunked`, by `Content-Length` (every such field agreeing), or by the end of the connection
/// (RFC 9112 §6.3). 1xx, 204 and 304 answers have no body. Bytes after the end of the response are ignored.
///
/// A value-type state machine: ``consume(_:)`` takes bytes in any pieces and returns whether the response is
/// complete; ``finish(requestSent:)`` says the connection ended. Failures are `URLError` codes as URLSession
/// reports them: −1002 for an answer that is not HTTP, −1011 for a malformed head or chunk framing (or a
/// `101`), and at the end of the connection −1011 when the whole request went out and no answer began, −1 when
/// the answer (or the request) was cut short.
struct HTTPResponseParser {
    private enum Framing {
        /// The head has not arrived yet.
        case head
        /// So many body bytes are left.
        case length(Int64)
        /// Chunked: the chunk-size line is next.
        case chunkSize
        /// Chunked: so many bytes of the current chunk are left.
        case chunkData(Int64)
        /// Chunked: the CRLF after a chunk's data is next.
        case chunkEnd
        /// Chunked: trailer lines up to an empty one are next.
        case trailer
        /// The body runs until the connection ends.
        case untilClose
        /// The response is complete.
        case done
    }

    /// The longest chunk-size or trailer line accepted, in bytes.
    private static let maximumLineBytes = 8_192

    private var framing = Framing.head
    private var pending: [UInt8] = []
    /// How many bytes of a head still in `pending` were already searched for its end.
    private var searchedHeadBytes = 0
    /// The final head, once it arrived.
    private(set) var head: HTTPResponseHead?
    /// How many interim (1xx) heads came before the final one.
    private(set) var interimCount = 0
    /// The body so far, at most ``HTTPReply/keptBodyBytes`` of it.
    private(set) var body = Data()

    /// Whether the final head and the whole body arrived.
    var isComplete: Bool {
        if case .done = framing { true } else { false }
    }

    /// The reply: the final head and the body so far; `nil` before the final head.
    var reply: HTTPReply? {
        head.map { HTTPReply(status: $0.status, headers: $0.fields, body: body) }
    }

    /// Takes the next bytes of the connection.
    /// - Returns: Whether the response is complete.
    /// - Throws: ``HTTPUploadError/connection(code:)`` −1002 or −1011 (see the type's description).
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(HTTPUploadError) -> Bool {
        guard !bytes.isEmpty, !isComplete else { return isComplete }
        pending.append(contentsOf: bytes)
        var start = 0
        defer { pending.removeFirst(start) }
        while start < pending.count, !isComplete {
            guard let used = try step(pending[start...]) else { break }
            start += used
        }
        return isComplete
    }

    /// The connection ended (the peer closed it): a body framed by the end of the connection is complete now.
    /// - Parameter requestSent: Whether the whole request had gone out.
    /// - Throws: ``HTTPUploadError/connection(code:)`` −1011 when the request went out and no byte of a final
    ///   head came, −1 when the response (or, with no answer at all, the request) was cut short.
    mutating func finish(requestSent: Bool) throws(HTTPUploadError) {
        switch framing {
        case .done: return
        case .untilClose: framing = .done
        case .head: throw .connection(code: requestSent && pending.isEmpty ? -1011 : -1)
        default: throw .connection(code: -1)
        }
    }

    /// Parses what it can from the front of `bytes`.
    /// - Returns: How many bytes it used, or `nil` when it needs more.
    private mutating func step(_ bytes: ArraySlice<UInt8>) throws(HTTPUploadError) -> Int? {
        switch framing {
        case .head:
            guard let (head, length) = try HTTPResponseHead.parse(bytes, searchedBytes: searchedHeadBytes) else {
                searchedHeadBytes = bytes.count
                return nil
            }
            searchedHeadBytes = 0
            try begin(head)
            return length
        case .length(let left):
            return takeBody(bytes, left: left, then: .done, rest: Framing.length)
        case .chunkSize:
            guard let (line, length) = try Self.line(in: bytes) else { return nil }
            let digits = line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.count <= 15, let size = Int64(digits, radix: 16), size >= 0 else {
                throw .connection(code: -1011)
            }
            framing = size == 0 ? .trailer : .chunkData(size)
            return length
        case .chunkData(let left):
            return takeBody(bytes, left: left, then: .chunkEnd, rest: Framing.chunkData)
        case .chunkEnd:
            guard let (line, length) = try Self.line(in: bytes) else { return nil }
            guard line.isEmpty else { throw .connection(code: -1011) }
            framing = .chunkSize
            return length
        case .trailer:
            guard let (line, length) = try Self.line(in: bytes) else { return nil }
            if line.isEmpty { framing = .done }
            return length
        case .untilClose:
            keep(bytes)
            return bytes.count
        case .done:
            return bytes.count
        }
    }

    /// Takes a head: skips an interim one, else chooses how the body is framed.
    private mutating func begin(_ head: HTTPResponseHead) throws(HTTPUploadError) {
        if head.isInterim {
            interimCount += 1
            return
        }
        guard head.status != 101 else { throw .connection(code: -1011) }
        self.head = head
        if head.status == 204 || head.status == 304 {
            framing = .done
        } else if let coding = head.field("Transfer-Encoding") {
            guard coding.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased() == "chunked"
            else {
                framing = .untilClose
                return
            }
            framing = .chunkSize
        } else if let count = try Self.contentLength(of: head) {
            framing = count == 0 ? .done : .length(count)
        } else {
            framing = .untilClose
        }
    }

    /// The body length the head's `Content-Length` states, `nil` without one. Every value must be the same, in
    /// one field's comma list and across repeated fields alike (identical repeats count as one): differing
    /// values are a framing error no reading can recover from (RFC 9112 §6.3).
    /// - Throws: ``HTTPUploadError/connection(code:)`` −1011 for differing or invalid values.
    private static func contentLength(of head: HTTPResponseHead) throws(HTTPUploadError) -> Int64? {
        let fields = head.values(of: "Content-Length")
        guard !fields.isEmpty else { return nil }
        let values = Set(fields.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        guard values.count == 1, let value = values.first, value.allSatisfy(\.isASCII), let count = Int64(value),
            count >= 0
        else { throw .connection(code: -1011) }
        return count
    }

    /// Takes up to `left` body bytes from the front of `bytes`: the framing becomes `then` when they were the
    /// last, `rest` of what is left otherwise.
    /// - Returns: How many bytes it took.
    private mutating func takeBody(
        _ bytes: ArraySlice<UInt8>, left: Int64, then: Framing, rest: (Int64) -> Framing
    ) -> Int {
        let count = Int(min(Int64(bytes.count), left))
        keep(bytes.prefix(count))
        framing = left == Int64(count) ? then : rest(left - Int64(count))
        return count
    }

    /// Keeps body bytes up to ``HTTPReply/keptBodyBytes``.
    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        let room = HTTPReply.keptBodyBytes - body.count
        if room > 0 { body.append(contentsOf: bytes.prefix(room)) }
    }

    /// The first line of `bytes` without its CRLF or LF, and its length with it; `nil` while its end has not
    /// arrived.
    private static func line(in bytes: ArraySlice<UInt8>) throws(HTTPUploadError) -> (String, Int)? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            if bytes.count > maximumLineBytes { throw .connection(code: -1011) }
            return nil
        }
        var line = bytes[bytes.startIndex..<newline]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return (String(decoding: line, as: UTF8.self), newline + 1 - bytes.startIndex)
    }
}
