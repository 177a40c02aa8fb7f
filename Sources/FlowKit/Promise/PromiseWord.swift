/// The bits of a promise's atomic state word: its phase and its fast continuation slot.
///
/// The common promise has one continuation, the link derived from it, and is settled once. The word lets that
/// case run without the lock:
/// - **Attach** (the first continuation, while the word is still `0`): a compare-and-swap `0 → claiming`
///   gives the caller the fast slot; it stores the callback in the promise's `first` field, then adds to the
///   word (`claiming → attached` for a dependent, `claiming → attachedIndependent` otherwise; release). If the word says `settled` by then, the settler saw `claiming`
///   and left the slot alone, so the attaching call runs its callback itself.
/// - **Settle**: setting `settling` (an atomic or) elects the one caller that settles; it alone writes the
///   result slot, then sets `settled` (acquire-release), which publishes the result and returns the bits it
///   must act on: `attached` or `attachedIndependent` (it takes `first`) and `slow` (it takes the lock to drain
///   the state).
/// - **Everything else** (a second continuation, cancel handlers, adopting, withdrawing)
///   sets `slow` first and then works under the lock, unless the word already said `settled`. So a settler
///   that did not see `slow` knows that no other thread touched the lock-guarded state and none will.
///
/// Order: the fast slot is taken only while no other operation has marked the word, so its continuation was
/// attached before every continuation in the list and runs first. Exactly once: only one caller sets
/// `settling`, and each continuation is handed over exactly once — by the settler, by the attaching call, or
/// by the list drained under the lock.
@usableFromInline
enum PromiseWord {
    /// The fast slot's two bits: `0` empty, ``claiming``, ``attached``, ``attachedIndependent``.
    @usableFromInline static let fastMask: UInt = 0b11
    /// A caller is storing the fast continuation.
    @usableFromInline static let claiming: UInt = 0b01
    /// The fast slot holds a dependent continuation (`claiming + 1`).
    @usableFromInline static let attached: UInt = 0b10
    /// The fast slot holds a continuation that does not count towards cancellation (`claiming + 2`).
    @usableFromInline static let attachedIndependent: UInt = 0b11
    /// Some operation used the lock-guarded state; the settler must take the lock.
    @usableFromInline static let slow: UInt = 0b100
    /// A caller won the right to settle and is writing the result.
    @usableFromInline static let settling: UInt = 0b1000
    /// The result is written and immutable; reading it needs only an acquiring load of the word.
    @usableFromInline static let settled: UInt = 0b1_0000

    /// Whether the fast slot holds a continuation (for the settler to take).
    @inlinable
    static func holdsFast(_ word: UInt) -> Bool {
        word & fastMask >= attached
    }

    /// How many dependents the fast slot holds: 1 when attached, else 0.
    @inlinable
    static func fastDependents(_ word: UInt) -> Int {
        word & fastMask == attached ? 1 : 0
    }
}
