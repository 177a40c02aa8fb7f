/// The head of an HTTP/1.x response — status line and header fields — read from the start of a byte buffer.
///
/// Lines end in CRLF or a bare LF; a header line that starts with a space or tab continues the previous field's
/// value (obsolete line folding, joined with one space). Names and values are decoded as UTF-8 (invalid bytes
/// replaced) and values trimmed of surrounding spaces and tabs.
///
/// Failures are the `URLError` codes URLSession reports for the same answers: bytes that do not start with `HTTP/`
/// are not HTTP at all (−1002, unsupported URL, known as soon as five bytes arrived, so a peer that sends garbage
/// and waits is not waited for); a head that starts like HTTP but is malformed or longer than ``maximumBytes``
/// is a bad server response (−1011).
struct HTTPResponseHead: Sendable {
    /// The longest head accepted, in bytes (status line, fields and the empty line).
    static let maximumBytes = 65_536

    /// The status code, 100…999.
    var status: Int
    /// The header fields in the order they came.
    var fields: [(name: String, value: String)]

    /// Whether this is an interim answer (1xx other than 101): another head follows it.
    var isInterim: Bool { (100..<200).contains(status) && status != 101 }

    /// The value of the first field named `name`, compared case-insensitively.
    func field(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The values of every field named `name`, compared case-insensitively, in the order they came.
    func values(of name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Reads one head from the start of `bytes`.
    /// - Parameters:
    ///   - bytes: The bytes received so far, the head first.
    ///   - searchedBytes: How many of them an earlier call already searched for the head's end (the search
    ///     resumes three bytes before that, so a head that trickles in is searched once, not once per piece).
    /// - Returns: The head and how many bytes it took (the empty line included), or `nil` while the empty line
    ///   that ends it has not arrived yet.
    /// - Throws: ``HTTPUploadError/connection(code:)`` −1002 for bytes that are not HTTP, −1011 for a malformed
    ///   or oversized head.
    static func parse(
        _ bytes: ArraySlice<UInt8>, searchedBytes: Int = 0
    ) throws(HTTPUploadError) -> (head: HTTPResponseHead, length: Int)? {
        let prefix = Array("HTTP/".utf8)
        guard bytes.prefix(prefix.count).elementsEqual(prefix.prefix(bytes.count)) else {
            throw .connection(code: -1002)
        }
        let resume = bytes.startIndex + min(max(searchedBytes - 3, 0), bytes.count)
        guard let end = endOfHead(in: bytes, from: resume) else {
            if bytes.count > maximumBytes { throw .connection(code: -1011) }
            return nil
        }
        guard end - bytes.startIndex <= maximumBytes else { throw .connection(code: -1011) }
        var lines = bytes[bytes.startIndex..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { line in String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first, let status = Self.status(in: statusLine) else {
            throw .connection(code: -1011)
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" {
                guard !fields.isEmpty else { throw .connection(code: -1011) }
                fields[fields.count - 1].value += " " + trimmed(line)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { throw .connection(code: -1011) }
            let name = String(line[..<colon])
            guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw .connection(code: -1011)
            }
            fields.append((name, trimmed(line[line.index(after: colon)...])))
        }
        return (HTTPResponseHead(status: status, fields: fields), end - bytes.startIndex)
    }

    /// The index just past the empty line that ends a head (`\n\r\n` or `\n\n` at `start` or later), if it
    /// arrived.
    private static func endOfHead(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
            if next + 1 < bytes.endIndex, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                return next + 2
            }
            index = next
        }
        return nil
    }

    /// The code of a status line `HTTP/1.x SSS[ reason]`.
    private static func status(in line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
            parts[1].allSatisfy(\.isASCII), let status = Int(parts[1]), (100...999).contains(status)
        else { return nil }
        return status
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func trimmed(_ text: String) -> String { trimmed(text[...]) }
}
