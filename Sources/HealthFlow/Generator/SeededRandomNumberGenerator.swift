import Foundation

/// A small, fast, reproducible random number generator: xoshiro256** seeded through SplitMix64.
///
/// The same seed yields the same sequence on every platform and Swift version, because every value the
/// generator hands out — including doubles, ranges, normal variates and UUIDs — is derived here from the
/// raw 64-bit outputs rather than through the standard library's `random(in:using:)`, whose algorithm
/// is free to change. Use it wherever output must be repeatable (test data, benchmarks); it is not
/// cryptographically secure.
///
/// - Note: A value type: copying it copies the state, so two copies produce the same sequence.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Hashable, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// Seeds the generator; every seed (zero included) gives a different, well-mixed state.
    ///
    /// - Parameter seed: Any 64-bit value.
    public init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (nextSplitMix(), nextSplitMix(), nextSplitMix(), nextSplitMix())
    }

    /// The next 64 random bits (xoshiro256**).
    ///
    /// - Returns: A uniformly distributed `UInt64`.
    public mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// A double uniformly distributed in `[0, 1)` with 53 random bits.
    ///
    /// - Returns: A value in `[0, 1)`.
    public mutating func nextDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A double uniformly distributed in `range` (the upper bound is reached only when the range is a point).
    ///
    /// - Parameter range: The bounds.
    /// - Returns: A value in the range.
    public mutating func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextDouble()
    }

    /// An integer uniformly distributed in `range`, without modulo bias.
    ///
    /// - Parameter range: The bounds.
    /// - Returns: A value in the range.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound)) &+ 1
        if span == 0 { return Int(truncatingIfNeeded: next()) }  // the full 64-bit range
        // Lemire's nearly divisionless method.
        var random = next()
        var product = random.multipliedFullWidth(by: span)
        if product.low < span {
            let threshold = (0 &- span) % span
            while product.low < threshold {
                random = next()
                product = random.multipliedFullWidth(by: span)
            }
        }
        return range.lowerBound &+ Int(truncatingIfNeeded: product.high)
    }

    /// `true` with probability `probability`.
    ///
    /// - Parameter probability: From 0 (never) to 1 (always).
    /// - Returns: The outcome.
    public mutating func chance(_ probability: Double) -> Bool {
        nextDouble() < probability
    }

    /// A normally distributed value (Box–Muller).
    ///
    /// - Parameters:
    ///   - mean: The distribution's mean.
    ///   - standardDeviation: Its standard deviation.
    /// - Returns: A value; unbounded, so clamp it where a range matters.
    public mutating func normal(mean: Double, standardDeviation: Double) -> Double {
        let u1 = 1 - nextDouble()  // in (0, 1], so the logarithm is finite
        let u2 = nextDouble()
        return mean + standardDeviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A version-4 (random) UUID built from the generator's bits, so it is reproducible.
    ///
    /// - Returns: A UUID with the version and variant bits set.
    public mutating func nextUUID() -> UUID {
        let high = next()
        let low = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// Equal when the states are equal (the two generators will produce the same sequence).
    public static func == (lhs: SeededRandomNumberGenerator, rhs: SeededRandomNumberGenerator) -> Bool {
        lhs.state == rhs.state
    }

    /// Hashes the state.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(state.0)
        hasher.combine(state.1)
        hasher.combine(state.2)
        hasher.combine(state.3)
    }
}
