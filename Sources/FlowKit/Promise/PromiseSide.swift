import Synchronization

/// What every promise's side state has, whatever its value type: the lock that guards it.
///
/// Not generic, so that a promise's (necessarily unspecialised) deinit releases its side without looking up any
/// type's metadata; ``Promise/Side`` adds the state.
@usableFromInline
class PromiseSide: @unchecked Sendable {
    // Safe: the lock is the only member, and it serialises the closures run under it.
    @usableFromInline let lock = StateLock()

    @inlinable
    init() {}
}

/// An atomic, set-once, strong reference to a promise's side state (`0` until the first slow operation).
///
/// The bits of a retained ``PromiseSide``: set once by ``storeIfNil(_:)`` and released by ``destroy()``, which
/// the promise's deinit calls. Not `AtomicLazyReference`, whose generic code is not specialised across modules
/// and would run on every slow operation.
@usableFromInline
struct SideReference: ~Copyable, Sendable {
    @usableFromInline let bits = Atomic<UInt>(0)

    @inlinable
    init() {}

    /// The side, if one was stored.
    @inlinable
    func load() -> PromiseSide? {
        let current = bits.load(ordering: .acquiring)
        guard current != 0 else { return nil }
        return Unmanaged<PromiseSide>.fromOpaque(UnsafeRawPointer(bitPattern: current)!).takeUnretainedValue()
    }

    /// Stores `side` unless one was stored first; returns the side that is stored.
    @inlinable
    func storeIfNil(_ side: PromiseSide) -> PromiseSide {
        let retained = Unmanaged.passRetained(side)
        let desired = UInt(bitPattern: retained.toOpaque())
        let exchange = bits.compareExchange(expected: 0, desired: desired, ordering: .acquiringAndReleasing)
        if exchange.exchanged { return side }
        retained.release()
        return Unmanaged<PromiseSide>.fromOpaque(UnsafeRawPointer(bitPattern: exchange.original)!)
            .takeUnretainedValue()
    }

    /// Releases the side; only the owner's deinit calls it.
    @inlinable
    func destroy() {
        let current = bits.load(ordering: .relaxed)
        if current != 0 {
            Unmanaged<PromiseSide>.fromOpaque(UnsafeRawPointer(bitPattern: current)!).release()
        }
    }
}
