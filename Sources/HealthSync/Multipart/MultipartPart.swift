import Foundation

/// One field of a multipart/form-data body (RFC 7578): a name, an optional filename and content type, and a
/// body given as `Data` or as a stream of known length.
///
/// Header values are checked when the part is made, so a bad part never reaches the encoder:
/// - the field name and the MIME type must not contain CR, LF, `"` or any other control character
///   (MIME types must also be ASCII), otherwise ``MultipartError`` names the field;
/// - a filename is kept as raw UTF-8 with only `"`, CR and LF percent-encoded (`%22`, `%0D`, `%0A`), as browsers
///   do (RFC 7578 §4.2, WHATWG); `filename*` is never written.
public struct MultipartPart: Sendable {
    /// Where a part's content comes from.
    public enum Content: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A stream of exactly `length` bytes; `makeStream` is called once per body stream, so every upload
        /// attempt reads a fresh stream. Returning `nil` (a file that vanished) fails that read.
        case stream(length: Int64, makeStream: @Sendable () -> InputStream?)
    }

    /// The field name, as given (validated).
    public let name: String

    /// The filename, as given (before percent-encoding), or `nil` for a plain field.
    public let filename: String?

    /// The MIME type written in the part's `Content-Type` header, or `nil` for none.
    ///
    /// A file part without an explicit type gets `application/octet-stream` (RFC 7578 §4.4); a plain field
    /// without one gets no `Content-Type` header (it is `text/plain`).
    public let contentType: String?

    /// The part's content.
    public let content: Content

    /// The number of content bytes (without headers).
    public var contentLength: Int64 {
        switch content {
        case .data(let data): Int64(data.count)
        case .stream(let length, _): length
        }
    }

    /// Makes a part whose content is in memory.
    ///
    /// - Parameters:
    ///   - name: the field name; no CR, LF, `"` or control characters.
    ///   - filename: a filename (makes this a file part), or `nil`.
    ///   - contentType: the MIME type; no CR, LF, `"`, control or non-ASCII characters.
    ///   - data: the content.
    /// - Throws: ``MultipartError/invalidFieldName(_:)`` or ``MultipartError/invalidContentType(_:field:)``.
    public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data)
        throws(MultipartError)
    {
        try self.init(name: name, filename: filename, contentType: contentType, content: .data(data))
    }

    /// Makes a part whose content is streamed, so it never needs to fit in memory.
    ///
    /// - Parameters:
    ///   - name: the field name; no CR, LF, `"` or control characters.
    ///   - filename: a filename (makes this a file part), or `nil`.
    ///   - contentType: the MIME type; no CR, LF, `"`, control or non-ASCII characters.
    ///   - length: the exact number of bytes every stream made by `makeStream` delivers.
    ///   - makeStream: makes a fresh, unopened stream of the content; called once per body stream.
    /// - Throws: ``MultipartError/invalidFieldName(_:)``, ``MultipartError/invalidContentType(_:field:)`` or
    ///   ``MultipartError/invalidLength(_:field:)``.
    /// - Note: `makeStream` must be `Sendable`: bodies are built on one task and read on URLSession's threads.
    ///   Streamed content is not scanned for the boundary; a random boundary makes a collision negligible.
    public init(
        name: String, filename: String? = nil, contentType: String? = nil, length: Int64,
        makeStream: @escaping @Sendable () -> InputStream?
    ) throws(MultipartError) {
        guard length >= 0 else { throw .invalidLength(length, field: name) }
        try self.init(
            name: name, filename: filename, contentType: contentType,
            content: .stream(length: length, makeStream: makeStream))
    }

    /// The longest name or filename accepted, in UTF-8 bytes.
    public static let maximumParameterBytes = 1_024

    private init(name: String, filename: String?, contentType: String?, content: Content) throws(MultipartError) {
        guard Self.isAcceptableParameter(name) else { throw .invalidFieldName(name) }
        if let filename, !Self.isAcceptableParameter(filename) {
            throw .invalidFilename(filename, field: name)
        }
        if let contentType {
            guard !contentType.isEmpty,
                !contentType.unicodeScalars.contains(where: { Self.isControl($0) || $0 == "\"" || !$0.isASCII })
            else { throw .invalidContentType(contentType, field: name) }
        }
        self.name = name
        self.filename = filename
        self.contentType = contentType ?? (filename == nil ? nil : "application/octet-stream")
        self.content = content
    }

    /// A name or filename that can be written: not empty, no control character (C0, which holds CR, LF and NUL,
    /// or DEL), at most ``maximumParameterBytes`` bytes of UTF-8.
    private static func isAcceptableParameter(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= maximumParameterBytes && !value.unicodeScalars.contains(where: isControl)
    }

    /// Every C0 control character (CR and LF among them) and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// A name or filename as written between the quotes of `name="…"` or `filename="…"`: `"` and `\`
    /// percent-encoded (`%22`, `%5C`), as the WHATWG form-data encoding does for `"` and so that no quoted-string
    /// parser can read a `\` as an escape; CR and LF as `%0D` and `%0A` (parts refuse them, but the function is
    /// safe on its own); everything else, raw UTF-8 included, kept. Never `filename*` (RFC 7578 §4.2).
    ///
    /// - Parameter value: a name or filename as the user sees it.
    /// - Returns: the value to write between the quotes.
    public static func encodeParameter(_ value: String) -> String {
        var encoded = ""
        encoded.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": encoded += "%22"
            case "\\": encoded += "%5C"
            case "\r": encoded += "%0D"
            case "\n": encoded += "%0A"
            default: encoded.unicodeScalars.append(scalar)
            }
        }
        return encoded
    }

    /// The part's header block, each line ending in CRLF, followed by the blank line.
    var headerBytes: Data {
        var header = "Content-Disposition: form-data; name=\"\(Self.encodeParameter(name))\""
        if let filename { header += "; filename=\"\(Self.encodeParameter(filename))\"" }
        header += "\r\n"
        if let contentType { header += "Content-Type: \(contentType)\r\n" }
        header += "\r\n"
        return Data(header.utf8)
    }
}
