/// The clock an ``OperationGraph`` reads to time its trace: when each node started and ended.
///
/// Production graphs use ``continuous`` (monotonic, unaffected by changes to the wall clock). Tests inject a clock
/// of their own so that a trace's contents can be asserted exactly.
///
/// The graph reads the clock once when it starts (the trace's origin), when each of its operations starts, and
/// when each node's work ends — never while holding its lock.
public struct GraphClock: Sendable {
    private let read: @Sendable () -> Duration

    /// A clock that calls `now` for every reading.
    ///
    /// - Parameter now: Returns the current time from a fixed origin; must never decrease and must be cheap.
    public init(now: @escaping @Sendable () -> Duration) {
        read = now
    }

    /// The current reading.
    public var now: Duration {
        read()
    }

    /// The monotonic system clock (`ContinuousClock`), measured from the first time any graph reads it.
    public static let continuous: GraphClock = {
        let origin = ContinuousClock.now
        return GraphClock { origin.duration(to: ContinuousClock.now) }
    }()

    /// The clock of a ``FlowScheduler`` — for example a test's `ManualScheduler`, whose time moves only when the
    /// test advances it.
    ///
    /// - Parameter scheduler: The scheduler whose ``FlowScheduler/now`` is read.
    /// - Returns: A clock reading `scheduler.now`.
    public static func scheduler(_ scheduler: any FlowScheduler) -> GraphClock {
        GraphClock { scheduler.now }
    }
}
