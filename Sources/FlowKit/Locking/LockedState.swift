#if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
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

/// A value behind a lock: the one lock of FlowKit and of every module built on it.
///
/// Guarantee: `withLock` runs its closure with exclusive access to the value, and every change made inside one
/// `withLock` is visible to the next (the lock orders them, as a mutex does). The lock is not recursive: calling
/// `withLock` on the same lock from inside its closure deadlocks. Values go in and out as `sending`, so no
/// reference to the protected value escapes the lock unchecked, and the lock is `Sendable` for any value.
///
/// The lock is `Synchronization.Mutex` (a futex on Linux, `os_unfair_lock` on Apple platforms). Its one
/// sanitizer story: `Mutex` on Linux locks inside the uninstrumented Synchronization library (an atomic and a
/// futex), which ThreadSanitizer cannot see, so every hand-over of the value through it would be reported as a
/// data race. Sanitizer builds therefore compile with
/// the condition `HEALTHFLOW_SANITIZER` (`-Xswiftc -DHEALTHFLOW_SANITIZER`; the older `FLOWKIT_THREAD_SANITIZER`
/// means the same), which swaps in a heap-allocated `pthread_mutex_t` that ThreadSanitizer follows; the code under
/// test is otherwise the same. Tests use the same condition to skip the checks that measure time or CPU, which a
/// sanitizer makes meaningless. No other lock type is used in this package, so the condition covers all of it.
///
/// Never call unknown code (callbacks, continuations) from the closure: take what the caller needs out of the
/// lock, and act on it after `withLock` returns. Every other caller waits while a closure runs, so slow work
/// belongs under the lock only where serialising that work is the point.
///
/// - Complexity: O(1) besides the closure; one uncontended lock and unlock, and no allocation (the sanitizer build
///   allocates the pthread mutex once, in `init`).
public struct LockedState<Value>: ~Copyable {
    #if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
        @usableFromInline
        let storage: PThreadLockStorage<Value>
    #else
        @usableFromInline
        let mutex: Mutex<Value>
    #endif

    /// A lock protecting `initialValue`.
    ///
    /// - Parameter initialValue: The value, handed over to the lock.
    @inlinable
    public init(_ initialValue: sending Value) {
        #if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
            storage = PThreadLockStorage(initialValue)
        #else
            mutex = Mutex(initialValue)
        #endif
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// - Parameter body: Reads or changes the value; must not call back into this lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        #if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
            try storage.withLock(body)
        #else
            try mutex.withLock(body)
        #endif
    }

    /// Runs `body` with exclusive access to the value if the lock is free at once; never waits.
    ///
    /// - Parameter body: Reads or changes the value; must not call back into this lock.
    /// - Returns: What `body` returns, or `nil` (without running `body`) if another thread holds the lock.
    /// - Throws: What `body` throws.
    @inlinable
    public borrowing func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        #if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
            try storage.withLockIfAvailable(body)
        #else
            try mutex.withLockIfAvailable(body)
        #endif
    }
}

// Safe: every access to the value goes through `withLock`, which holds the lock, and values enter and leave
// only as `sending`, exactly like `Synchronization.Mutex`, which is itself `Sendable` for any value.
extension LockedState: @unchecked Sendable {}

#if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
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

        @usableFromInline
        func withLockIfAvailable<Result, Failure: Error>(
            _ body: (inout sending Value) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result? {
            guard pthread_mutex_trylock(mutex) == 0 else { return nil }
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
    #if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
        @usableFromInline
        let storage: PThreadLockStorage<Void>
    #else
        @usableFromInline
        let mutex: Mutex<Void>
    #endif

    @inlinable
    init() {
        #if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
            storage = PThreadLockStorage(())
        #else
            mutex = Mutex(())
        #endif
    }

    /// Runs `body` while holding the lock.
    @inlinable
    borrowing func withLock<Result: Sendable>(_ body: () -> Result) -> Result {
        #if HEALTHFLOW_SANITIZER || FLOWKIT_THREAD_SANITIZER
            storage.withLockUnchecked(body)
        #else
            mutex.withLock { _ in body() }
        #endif
    }
}
