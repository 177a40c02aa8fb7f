import Foundation
import Testing

@testable import HealthSync

/// The socket client's response parser: every framing, fed whole and one byte at a time (the same reply either
/// way), and each malformed or cut-short answer with the `URLError` code URLSession gives for it.
struct HTTPResponseParserTests {
    /// Feeds `text` in pieces of `piece` bytes; returns the parser and whether it reported completion.
    static func parse(_ text: String, piece: Int = .max) throws -> (HTTPResponseParser, Bool) {
        var parser = HTTPResponseParser()
        var complete = false
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + min(piece, bytes.count))
            complete = try bytes[start..<end].withUnsafeBytes { try parser.consume($0) }
            start = end
        }
        return (parser, complete)
    }

    static let answers: [(text: String, status: Int, body: String)] = [
        (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 18\r\n\r\n{\"duplicate\":true}", 200,
            "{\"duplicate\":true}"
        ),
        ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Payload Too Large\r\ncontent-length: 3\r\n\r\nbig", 413, "big"),
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n",
            200, "hello, world"
        ),
        ("HTTP/1.0 503 Service Unavailable\nRetry-After: 7\n\nbusy", 503, "busy"),
        ("HTTP/1.1 204 No Content\r\nIdempotent-Replayed: true\r\n\r\n", 204, ""),
    ]

    @Test(arguments: 0..<answers.count, [Int.max, 1])
    func everyFramingGivesTheSameReplyWholeOrByteByByte(answer: Int, piece: Int) throws {
        let (text, status, body) = Self.answers[answer]
        let (parsed, complete) = try Self.parse(text, piece: piece)
        var parser = parsed
        if !complete {
            try parser.finish(requestSent: true)  // the last answer's body runs until the connection ends
        }
        let reply = try #require(parser.reply)
        #expect(parser.isComplete)
        #expect(reply.status == status)
        #expect(String(decoding: reply.body, as: UTF8.self) == body)
    }

    @Test func headerNamesAreCaseInsensitiveAndFoldedLinesJoin() throws {
        let (parser, complete) = try Self.parse(
            "HTTP/1.1 429 Too Many\r\nretry-after:  3 \r\nX-Note: one\r\n\ttwo\r\nContent-Length: 0\r\n\r\n")
        let reply = try #require(parser.reply)
        #expect(complete)
        #expect(reply.header("Retry-After") == "3")
        #expect(reply.header("x-note") == "one two")
        #expect(HTTPTransport.retryAfter(reply.header("RETRY-AFTER")) == .seconds(3))
    }

    @Test func anInterimAnswerIsCountedAndSkipped() throws {
        let (parser, complete) = try Self.parse("HTTP/1.1 100 Continue\r\n\r\n")
        #expect(!complete && parser.head == nil && parser.interimCount == 1)
    }

    @Test func aBodyBeyondTheKeptBytesIsReadAndDropped() throws {
        let size = HTTPReply.keptBodyBytes + 10
        let (parser, complete) = try Self.parse(
            "HTTP/1.1 500 Oops\r\nContent-Length: \(size)\r\n\r\n" + String(repeating: "x", count: size))
        #expect(complete)
        #expect(parser.reply?.body.count == HTTPReply.keptBodyBytes)
    }

    /// Not HTTP: −1002 as soon as the first bytes differ from `HTTP/`, even before a line ends.
    @Test(arguments: ["THIS IS NOT HTTP\r\n\r\n", "T", "<html>"])
    func bytesThatAreNotHTTPAreAnUnsupportedProtocol(text: String) {
        #expect(throws: HTTPUploadError.connection(code: -1002)) { try Self.parse(text) }
    }

    @Test(arguments: [
        "HTTP/1.1 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n",
        "HTTP/1.1 101 Switching Protocols\r\n\r\n",
    ])
    func aMalformedAnswerIsABadServerResponse(text: String) {
        #expect(throws: HTTPUploadError.connection(code: -1011)) { try Self.parse(text) }
    }

    /// `Content-Length` fields that differ — across repeated fields as within one field's list — leave the body's
    /// end unknowable (RFC 9112 §6.3): a bad server response, whichever comes first.
    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 0\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5, 0\r\n\r\nhello",
    ])
    func differingContentLengthFieldsAreABadServerResponse(text: String) {
        #expect(throws: HTTPUploadError.connection(code: -1011)) { try Self.parse(text) }
    }

    /// Repeated `Content-Length` fields that agree count as one.
    @Test func repeatedAgreeingContentLengthsFrameTheBodyOnce() throws {
        let (parser, complete) = try Self.parse(
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5, 5\r\n\r\nhelloEXTRA")
        #expect(complete)
        #expect(parser.reply?.body == Data("hello".utf8))
    }

    @Test func anEndlessHeadIsABadServerResponse() {
        let text = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Filler: 0123456789\r\n", count: 4_000)
        #expect(throws: HTTPUploadError.connection(code: -1011)) { try Self.parse(text) }
    }

    /// The end of the connection: nothing after the whole request is "no reply" (−1011); an answer or a request
    /// cut short is −1; a body framed by the connection's end is complete.
    @Test func theEndOfTheConnectionCompletesOrFailsByWhatCameBefore() throws {
        var silent = HTTPResponseParser()
        #expect(throws: HTTPUploadError.connection(code: -1011)) { try silent.finish(requestSent: true) }
        #expect(throws: HTTPUploadError.connection(code: -1)) { try silent.finish(requestSent: false) }

        var (truncated, _) = try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"received\": 1")
        #expect(throws: HTTPUploadError.connection(code: -1)) { try truncated.finish(requestSent: true) }

        var (halfHead, _) = try Self.parse("HTTP/1.1 200 OK\r\nContent-")
        #expect(throws: HTTPUploadError.connection(code: -1)) { try halfHead.finish(requestSent: true) }

        let (parsed, complete) = try Self.parse("HTTP/1.1 200 OK\r\n\r\nall of it")
        var untilClose = parsed
        #expect(!complete)
        try untilClose.finish(requestSent: true)
        #expect(untilClose.isComplete && untilClose.reply?.body == Data("all of it".utf8))
    }
}
