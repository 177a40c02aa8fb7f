/// SplitMix64 behind a lock: a tiny, well-distributed, reproducible random source for jitter in tests.
final class SeededGenerator: Sendable {
    private let state: LockedState<UInt64>

    init(seed: UInt64) {
        state = LockedState(seed)
    }

    func nextUnit() -> Double {
        let bits = state.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return Double(bits >> 11) / Double(1 << 53)
    }
}
