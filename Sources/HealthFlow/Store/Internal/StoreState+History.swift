import Foundation

extension StoreState {
    /// The checkpoint at the last change (see ``HealthHistoryCheckpoint``).
    func historyCheckpoint() -> HealthHistoryCheckpoint {
        HealthHistoryCheckpoint(storeID: storeID, sequence: sequence, fingerprint: historySum)
    }

    /// Why `checkpoint` is not on this state's history, or `nil`.
    func mismatch(with checkpoint: HealthHistoryCheckpoint) -> HealthHistoryMismatch? {
        checkpoint.mismatch(storeID: storeID, last: sequence) { fingerprint(through: $0) }
    }

    /// The wrapping sum of ``HistoryMix`` over every addition and deletion numbered up to `last`: order-free,
    /// so it is the running ``historySum`` less the changes after `last`.
    /// - Complexity: O(types × log n + changes after `last`).
    func fingerprint(through last: UInt64) -> UInt64 {
        historySum &- Self.sum(of: indexes, after: last)
    }

    /// The sum over the changes numbered after `first` (each type's logs are in sequence order).
    static func sum(of indexes: [TypeIndex], after first: UInt64) -> UInt64 {
        var sum: UInt64 = 0
        for index in indexes {
            for addition in index.additions[index.firstAddition(after: first)...] {
                sum &+= HistoryMix.addition(sequence: addition.sequence, uuid: addition.uuid)
            }
            for tombstone in index.tombstones[index.firstTombstone(after: first)...] {
                sum &+= HistoryMix.deletion(sequence: tombstone.sequence, uuid: tombstone.object.uuid)
            }
        }
        return sum
    }
}

/// A fixed 64-bit mix of a change (the same in every process: no seeded hashing).
enum HistoryMix {
    static func addition(sequence: UInt64, uuid: UUID) -> UInt64 {
        addition(sequence: sequence, uuid: UUIDKey(uuid))
    }

    static func deletion(sequence: UInt64, uuid: UUID) -> UInt64 {
        deletion(sequence: sequence, uuid: UUIDKey(uuid))
    }

    static func addition(sequence: UInt64, uuid: UUIDKey) -> UInt64 {
        mix(sequence: sequence, uuid: uuid)
    }

    static func deletion(sequence: UInt64, uuid: UUIDKey) -> UInt64 {
        mix(sequence: sequence, uuid: uuid) ^ 0xD1E7_ED00_0000_0000
    }

    /// The UUID's first 8 bytes and last 8 bytes, each loaded as a native-endian word.
    private static func mix(sequence: UInt64, uuid: UUIDKey) -> UInt64 {
        splitMix(splitMix(sequence ^ uuid.high) ^ uuid.low)
    }

    /// SplitMix64's finalizer.
    private static func splitMix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
