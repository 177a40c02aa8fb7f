import Synchronization

/// `Synchronization.Mutex`, plus an acquire/release pair on an atomic inside each critical section, so that
/// ThreadSanitizer sees the ordering the mutex provides.
///
/// On Linux, `Mutex` hands ownership over in the kernel (a futex) when it is contended, out of ThreadSanitizer's
/// sight: state touched under the lock by two threads in turn is then reported as a data race although it is
/// not (a four-thread counter under a plain `Mutex` is enough to show it). Each critical section here begins with
/// an acquiring load of `order` and ends with a releasing increment; since critical sections are totally ordered by
/// the mutex, each one's load reads the previous one's increment, which is a happens-before edge the sanitizer
/// understands. The cost is two uncontended atomic operations per critical section.
struct OrderedMutex<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    private let order = Atomic<UInt>(0)

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            _ = order.load(ordering: .acquiring)
            defer { order.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}
