import Foundation

/// An `InputStream` of `length` deterministic pseudo-random bytes that never holds more than a 64 KiB pattern:
/// byte `i` is `pattern[i % 65521]` (a prime period, so it never lines up with buffer sizes).
final class GzipMultipartGeneratedStream: InputStream {
    static let period = 65_521
    /// The pattern twice over, so any `period`-long window is contiguous.
    private static let doubledPattern: [UInt8] = {
        var generator = GzipMultipartSeededGenerator(seed: 7)
        let pattern = (0..<period).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return pattern + pattern
    }()

    private let length: Int64
    private var position: Int64 = 0
    private var status: Stream.Status = .notOpen

    init(length: Int64) {
        self.length = length
        super.init(data: Data())
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { nil }
    override var hasBytesAvailable: Bool { status == .open && position < length }
    override func open() { status = .open }
    override func close() { status = .closed }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        if status == .atEnd { return 0 }
        guard status == .open else { return -1 }
        var filled = 0
        Self.doubledPattern.withUnsafeBufferPointer { pattern in
            while filled < len, position < length {
                let start = Int(position % Int64(Self.period))
                let count = min(len - filled, Self.period, Int(length - position))
                (buffer + filled).update(from: pattern.baseAddress! + start, count: count)
                filled += count
                position += Int64(count)
            }
        }
        if position == length { status = .atEnd }
        return filled
    }
}
