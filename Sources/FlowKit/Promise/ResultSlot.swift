/// A promise's settled result, kept in storage whose layout does not depend on `Value`.
///
/// A promise's deinit runs unspecialised (Swift never specialises the deinit of a generic class), and destroying
/// a field whose layout depends on `Value` — a `Result<Value, any Error>?` — makes it look up that type's
/// metadata in the runtime's cache every time a promise is freed. This slot has a fixed layout: a value of at most
/// three words (alignment at most a word's) lives in `words`, a larger one in a ``ValueBox`` whose reference lives
/// there, an error as its existential; `phase` says which. The owner destroys it with ``destroy(_:)``, which
/// needs only `Value`'s own metadata.
///
/// Writing and destroying go through `inout` (the slot's real address inside the promise object): the words hold a
/// live value that only the phase knows about. Reading is not a mutation, so that any number of threads may read
/// a settled slot at once: it copies the value out of a bitwise image of the words, which is sound because only a
/// bitwise-takable value (one whose representation does not depend on its address) is kept inline.
@usableFromInline
struct ResultSlot {
    @usableFromInline
    enum Phase: UInt8 {
        /// `fulfilledTrivial`: inline, and needs no destruction (an `Int`, a `Double`), decided where `Value` is
        /// known, so that the unspecialised deinit need not ask `Value`'s metadata.
        case pending, fulfilled, fulfilledTrivial, fulfilledBoxed, rejected
    }

    /// Three words of raw storage (a struct, not a tuple: unspecialised code would look up a tuple's metadata).
    @usableFromInline
    struct Words {
        @usableFromInline var first: UInt = 0
        @usableFromInline var second: UInt = 0
        @usableFromInline var third: UInt = 0

        @inlinable
        init() {}
    }

    @usableFromInline
    var words = Words()
    @usableFromInline
    var phase = Phase.pending

    @inlinable
    init() {}

    @inlinable
    var isPending: Bool { phase == .pending }

    @inlinable
    static func keepsInline<Value>(_: Value.Type) -> Bool {
        MemoryLayout<Value>.size <= MemoryLayout<Words>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<Words>.alignment && _isBitwiseTakable(Value.self)
    }

    /// Runs `body` with the address of `words` (inside the promise object, since `self` is `inout`).
    @inlinable
    mutating func withAddress<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        withUnsafeMutableBytes(of: &words) { body($0.baseAddress!) }
    }

    /// Stores `result` into a pending slot.
    @inlinable
    mutating func store<Value>(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value) where ResultSlot.keepsInline(Value.self):
            _ = withAddress { $0.initializeMemory(as: Value.self, to: value) }
            phase = _isPOD(Value.self) ? .fulfilledTrivial : .fulfilled
        case .success(let value):
            _ = withAddress { $0.initializeMemory(as: ValueBox<Value>.self, to: ValueBox(value)) }
            phase = .fulfilledBoxed
        case .failure(let error):
            _ = withAddress { $0.initializeMemory(as: (any Error).self, to: error) }
            phase = .rejected
        }
    }

    /// Runs `body` with the address of a bitwise image of `words` (see the type's note on reading).
    @inlinable
    func withImage<R>(_ body: (UnsafeRawPointer) -> R) -> R {
        withUnsafeBytes(of: words) { body($0.baseAddress!) }
    }

    /// A copy of the result, or `nil` while pending.
    @inlinable
    func load<Value>(_: Value.Type) -> Result<Value, any Error>? {
        switch phase {
        case .pending: nil
        case .fulfilled, .fulfilledTrivial: .success(withImage { $0.assumingMemoryBound(to: Value.self).pointee })
        case .fulfilledBoxed: .success(withImage { $0.assumingMemoryBound(to: ValueBox<Value>.self).pointee.value })
        case .rejected: .failure(withImage { $0.assumingMemoryBound(to: (any Error).self).pointee })
        }
    }

    /// Whether the result is a `CancellationError`.
    @inlinable
    func isCancellation() -> Bool {
        phase == .rejected && withImage { $0.assumingMemoryBound(to: (any Error).self).pointee is CancellationError }
    }

    /// Destroys what the slot holds; `Value` must be the type it was stored with.
    ///
    /// Written for the unspecialised deinit: no closure and no generic helper, only `Value`'s own witnesses.
    @inlinable
    mutating func destroy<Value>(_: Value.Type) {
        let phase = self.phase
        self.phase = .pending
        // A trivial value needs no destruction: the common case costs one check.
        guard phase != .pending, phase != .fulfilledTrivial else { return }
        withUnsafeMutablePointer(to: &words) { words in
            let address = UnsafeMutableRawPointer(words)
            switch phase {
            case .pending, .fulfilledTrivial: break
            case .fulfilled: address.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
            case .fulfilledBoxed:
                Unmanaged<ValueBox<Value>>.fromOpaque(address.load(as: UnsafeRawPointer.self)).release()
            case .rejected: address.assumingMemoryBound(to: (any Error).self).deinitialize(count: 1)
            }
        }
    }
}

/// A value too large for a ``ResultSlot``'s words. Its only stored property has type `Value` itself, so freeing
/// it needs no metadata lookup either.
@usableFromInline
final class ValueBox<Value> {
    @usableFromInline
    let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
