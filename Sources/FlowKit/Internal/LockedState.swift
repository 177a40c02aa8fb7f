#if FLOWKIT_THREAD_SANITIZER
    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif
#else
    import Synchronization
#endif

/// A value behind a lock: FlowKit's one locking primitive.
///
/// In ordinary builds it is `Synchronization.Mutex` (a futex on Linux, `os_unfair_lock` on Apple platforms).
/// `Mutex` on Linux is invisible to ThreadSanitizer (its lock word lives in an uninstrumented library), so
/// sanitizer builds compile with `-DFLOWKIT_THREAD_SANITIZER` and get a `pthread_mutex_t`, which TSan
/// understands; the code under test is otherwise identical. Never run your code's slow work under the lock.
///
/// ```swift
/// let visits = LockedState(0)
/// visits.withLock { $0 += 1 }
/// let count = visits.withLock { $0 }
/// ```
public struct LockedState<Value>: ~Copyable {
    #if FLOWKIT_THREAD_SANITIZER
        @usableFromInline
        let storage: PThreadLockStorage<Value>
    #else
        @usableFromInline
        let mutex: Mutex<Value>
    #endif

    /// A lock protecting `initialValue`.
    ///
    /// ```swift
    /// let names = LockedState([String]())
    /// ```
    /// - Parameter initialValue: The value, handed over to the lock.
    @inlinable
    public init(_ initialValue: sending Value) {
        #if FLOWKIT_THREAD_SANITIZER
            storage = PThreadLockStorage(initialValue)
        #else
            mutex = Mutex(initialValue)
        #endif
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// ```swift
    /// let next = counter.withLock { value in value += 1; return value }
    /// ```
    /// - Parameter body: Reads or changes the value; must be quick and must not call back into this lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        #if FLOWKIT_THREAD_SANITIZER
            try storage.withLock(body)
        #else
            try mutex.withLock(body)
        #endif
    }
}

// Safe: every access to the value goes through `withLock`, which holds the lock, and values enter and leave
// only as `sending`, exactly like `Synchronization.Mutex`, which is itself `Sendable` for any value.
extension LockedState: @unchecked Sendable {}

#if FLOWKIT_THREAD_SANITIZER
    /// The sanitizer build's storage: a heap-allocated `pthread_mutex_t` (stable address) and the value.
    /// Safe for the same reason as `LockedState`: the value is only touched between lock and unlock.
    @usableFromInline
    final class PThreadLockStorage<Value>: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private nonisolated(unsafe) var value: Value

        @usableFromInline
        init(_ value: Value) {
            self.value = value
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        @usableFromInline
        func withLockUnchecked<Result>(_ body: () -> Result) -> Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }

        @usableFromInline
        func withLock<Result, Failure: Error>(
            _ body: (inout sending Value) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }
#endif

/// A lock with no value of its own, for a class that keeps its protected fields beside it.
///
/// `Promise` uses it instead of a `LockedState<State>`: the value-less lock has a fixed layout, so the
/// (necessarily unspecialised) deinit of a generic class no longer instantiates `Mutex<State<Value>>` metadata
/// at run time for every promise freed — a measured quarter of a promise round trip.
@usableFromInline
struct StateLock: ~Copyable, @unchecked Sendable {
    // Safe: it only serialises the closures passed to `withLock`; it protects no value itself.
    #if FLOWKIT_THREAD_SANITIZER
        @usableFromInline
        let storage: PThreadLockStorage<Void>
    #else
        @usableFromInline
        let mutex: Mutex<Void>
    #endif

    @inlinable
    init() {
        #if FLOWKIT_THREAD_SANITIZER
            storage = PThreadLockStorage(())
        #else
            mutex = Mutex(())
        #endif
    }

    /// Runs `body` while holding the lock.
    @inlinable
    borrowing func withLock<Result: Sendable>(_ body: () -> Result) -> Result {
        #if FLOWKIT_THREAD_SANITIZER
            storage.withLockUnchecked(body)
        #else
            mutex.withLock { _ in body() }
        #endif
    }
}
