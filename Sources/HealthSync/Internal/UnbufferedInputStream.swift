import Foundation

/// The base of HealthSync's own `InputStream`s: a pull-only stream with no internal buffer and no properties,
/// which is what FoundationNetworking asks of an `httpBodyStream`. Subclasses provide `streamStatus`,
/// `streamError`, `hasBytesAvailable`, `open()`, `close()` and `read(_:maxLength:)`.
///
/// Not `Sendable`: like every stream, it is read by one thread at a time.
class UnbufferedInputStream: InputStream {
    /// Creates the stream; `InputStream`'s designated initialiser needs a source, and an empty one is never read.
    init() {
        super.init(data: Data())
    }

    /// No internal buffer to expose: readers call `read(_:maxLength:)`.
    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    /// No stream properties.
    override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

    /// No stream properties to set.
    override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }
}
