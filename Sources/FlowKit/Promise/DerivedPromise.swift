/// A pending promise that follows one upstream promise and is cancelled when that one should be (what
/// `timeout`, `value` and a graph's promise node observe through).
///
/// The upstream is kept in a field of its own instead of the lock-guarded side state, so that following a
/// promise allocates nothing besides this object.
@usableFromInline
final class DerivedPromise<Value: Sendable>: Promise<Value>, @unchecked Sendable {
    // Safe: `upstream` is written by `init` (before any other thread can see this object) and afterwards only
    // by the one settler the state word elects (`takeCreationUpstream`, `dropCreationUpstream`), which is also
    // its only reader.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var upstream: (any PromiseNode)?

    @inlinable
    init(upstream: any PromiseNode) {
        self.upstream = upstream
        super.init()
    }

    @inlinable
    override func takeCreationUpstream() -> (any PromiseNode)? {
        let taken = upstream
        upstream = nil
        return taken
    }

    @inlinable
    override func dropCreationUpstream() {
        upstream = nil
    }
}
