import Foundation

/// A UUID as the store's indexes key it: its 16 bytes as two words, hashed as two `UInt64`s (one
/// `Hasher.combine` each) rather than byte by byte; equal exactly when the UUIDs are equal.
struct UUIDKey: Hashable, Sendable, CustomStringConvertible {
    let high: UInt64
    let low: UInt64

    init(_ uuid: UUID) {
        (high, low) = withUnsafeBytes(of: uuid.uuid) { bytes in
            (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            )
        }
    }

    var uuid: UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            buffer.storeBytes(of: high, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }

    /// The UUID's string, as `UUID` prints it.
    var description: String { uuid.uuidString }

    func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }
}

extension UUIDKey {
    /// The key whose halves are `high` and `low`, as ``init(_:)`` loads them from a UUID's bytes.
    init(high: UInt64, low: UInt64) {
        self = withUnsafeBytes(of: (high, low)) { UUIDKey(UUID(uuid: $0.loadUnaligned(as: uuid_t.self))) }
    }
}
