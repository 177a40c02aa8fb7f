/// How long to wait before each retry: exponential growth with a cap, plus jitter.
///
/// The wait before retry `n` (1 for the first retry) is `initial · multiplierⁿ⁻¹`, capped at `maximum`,
/// then spread by ``Jitter`` so that many clients failing together do not retry together.
public struct Backoff: Sendable, Equatable {
    /// The wait before the first retry.
    public var initial: Duration
    /// The growth factor from one retry to the next (1 for a constant wait).
    public var multiplier: Double
    /// The longest wait, before jitter.
    public var maximum: Duration
    /// How the wait is randomised.
    public var jitter: Jitter

    /// A back-off from its parts.
    ///
    /// - Parameters:
    ///   - initial: The wait before the first retry.
    ///   - multiplier: The growth factor (values below 1 are treated as 1).
    ///   - maximum: The cap before jitter.
    ///   - jitter: The randomisation.
    public init(initial: Duration, multiplier: Double, maximum: Duration, jitter: Jitter) {
        self.initial = max(initial, .zero)
        self.multiplier = multiplier.isFinite ? max(multiplier, 1) : 1
        self.maximum = max(maximum, .zero)
        self.jitter = jitter
    }

    /// Exponential back-off, full jitter by default (the usual choice for network retries).
    ///
    /// - Parameters:
    ///   - initial: The wait before the first retry (100 ms).
    ///   - multiplier: The growth factor (2).
    ///   - maximum: The cap (30 s).
    ///   - jitter: The randomisation (``Jitter/full``).
    /// - Returns: The back-off.
    public static func exponential(
        initial: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maximum: Duration = .seconds(30),
        jitter: Jitter = .full
    ) -> Backoff {
        Backoff(initial: initial, multiplier: multiplier, maximum: maximum, jitter: jitter)
    }

    /// The same wait before every retry.
    ///
    /// - Parameters:
    ///   - delay: The wait.
    ///   - jitter: The randomisation (none by default).
    /// - Returns: The back-off.
    public static func constant(_ delay: Duration, jitter: Jitter = .none) -> Backoff {
        Backoff(initial: delay, multiplier: 1, maximum: delay, jitter: jitter)
    }

    /// Retry at once, with no wait.
    public static let immediate = Backoff(initial: .zero, multiplier: 1, maximum: .zero, jitter: .none)

    /// The wait before retry number `retry` (1-based).
    ///
    /// - Parameters:
    ///   - retry: 1 for the first retry, 2 for the second…
    ///   - randomUnit: A random number in `0..<1` for the jitter (pass a fixed one in tests).
    /// - Returns: The wait, between zero and ``maximum``.
    public func delay(beforeRetry retry: Int, randomUnit: Double) -> Duration {
        let cap = maximum.seconds
        var base = initial.seconds
        var step = 1
        while step < retry && base < cap {
            base *= multiplier
            step += 1
        }
        let capped = min(base, cap)
        let unit = randomUnit.isFinite ? min(max(randomUnit, 0), 1) : 0
        let spread: Double =
            switch jitter {
            case .none: capped
            case .full: capped * unit
            case .equal: capped / 2 + capped / 2 * unit
            case .proportional(let fraction):
                capped * (1 + min(max(fraction, 0), 1) * (2 * unit - 1))
            }
        return .seconds(min(max(spread, 0), cap))
    }
}

/// How a back-off wait is randomised; `unit` below is a random number in `0..<1`.
public enum Jitter: Sendable, Equatable {
    /// The exact wait.
    case none
    /// Uniform in `0...wait` ("full jitter": spreads retries the most).
    case full
    /// Uniform in `wait/2...wait`.
    case equal
    /// Uniform in `wait·(1−f)...wait·(1+f)`, then capped at the maximum.
    case proportional(Double)
}

/// Where jitter's random numbers come from: the system generator, or a seeded one for reproducible tests.
public struct JitterSource: Sendable {
    private let next: @Sendable () -> Double

    /// A source from a function returning numbers in `0..<1`.
    ///
    /// - Parameter next: Returns the next number.
    public init(_ next: @escaping @Sendable () -> Double) {
        self.next = next
    }

    /// The next random number in `0..<1`.
    ///
    /// - Returns: The number.
    public func nextUnit() -> Double {
        next()
    }

    /// The system's random number generator.
    public static let system = JitterSource { Double.random(in: 0..<1) }

    /// A deterministic sequence (SplitMix64) from `seed`: the same seed gives the same waits.
    ///
    /// - Parameter seed: The seed.
    /// - Returns: The source.
    public static func seeded(_ seed: UInt64) -> JitterSource {
        let generator = SeededGenerator(seed: seed)
        return JitterSource { generator.nextUnit() }
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
