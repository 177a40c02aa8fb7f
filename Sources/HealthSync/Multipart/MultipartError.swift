/// What can go wrong while building or streaming a multipart/form-data body.
///
/// Every case names the offending field, so a rejected header is easy to trace back to its source.
public enum MultipartError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A boundary that is empty, longer than 70 characters, or contains anything outside `[A-Za-z0-9-]`.
    case invalidBoundary(String)

    /// A field name that is empty, holds a control character (C0 — CR, LF and NUL among them — or DEL), or is
    /// longer than ``MultipartPart/maximumParameterBytes`` bytes.
    case invalidFieldName(String)
    /// A filename that is empty, holds a control character, or is longer than
    /// ``MultipartPart/maximumParameterBytes`` bytes; `field` names its part.
    case invalidFilename(String, field: String)

    /// A MIME type that is empty or contains CR, LF, `"`, another control character or a non-ASCII character.
    case invalidContentType(String, field: String)

    /// A streamed part declared a negative length.
    case invalidLength(Int64, field: String)

    /// An explicitly chosen boundary occurs in the content of a `Data` part.
    case boundaryInContent(boundary: String, field: String)

    /// A streamed part's source ended before delivering its declared length, or delivered more.
    case sourceLengthMismatch(field: String, declared: Int64, delivered: Int64)

    /// A streamed part's source `InputStream` reported an error.
    case sourceFailed(field: String, reason: String)

    /// A readable explanation naming the field and the problem.
    public var description: String {
        switch self {
        case .invalidBoundary(let boundary):
            "multipart boundary \(boundary.debugDescription) must be 1 to 70 characters of [A-Za-z0-9-]"
        case .invalidFieldName(let name):
            "multipart field name \(name.debugDescription) is empty, contains a control character (CR, LF, NUL, …)"
                + " or is longer than \(MultipartPart.maximumParameterBytes) bytes"
        case .invalidFilename(let filename, let field):
            "filename \(filename.debugDescription) of multipart field \(field.debugDescription) is empty, contains a"
                + " control character (CR, LF, NUL, …) or is longer than \(MultipartPart.maximumParameterBytes) bytes"
        case .invalidContentType(let type, let field):
            "content type \(type.debugDescription) of multipart field \(field.debugDescription) is empty or contains"
                + " a CR, LF, quote, control or non-ASCII character"
        case .invalidLength(let length, let field):
            "multipart field \(field.debugDescription) declares a negative length \(length)"
        case .boundaryInContent(let boundary, let field):
            "the chosen boundary \(boundary.debugDescription) occurs in the content of multipart field"
                + " \(field.debugDescription); choose another or let MultipartBody pick a random one"
        case .sourceLengthMismatch(let field, let declared, let delivered):
            "the source of multipart field \(field.debugDescription) declared \(declared) bytes but delivered"
                + " \(delivered)"
        case .sourceFailed(let field, let reason):
            "the source of multipart field \(field.debugDescription) failed: \(reason)"
        }
    }
}
