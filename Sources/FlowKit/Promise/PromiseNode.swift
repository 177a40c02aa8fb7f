/// What a promise needs to know about the promises it depends on, whatever their value type.
@usableFromInline
protocol PromiseNode: AnyObject, Sendable {
    /// Records that one dependent no longer needs this promise; `true` when none does and it should be cancelled.
    func withdrawDependent() -> Bool
    /// Rejects with `CancellationError` if pending and runs the cancellation handlers. Returns its upstream and
    /// the delivery of the rejection to its continuations, which the cascade runs only once every cancel handler
    /// upstream has run.
    func cancelLocally() -> CancelledNode
}

/// What cancelling one promise left for the cascade to finish: the promises it depended on, and the rejection
/// still to be handed to its continuations (`nil` when it was already settled).
@usableFromInline
struct CancelledNode {
    @usableFromInline let upstream: UpstreamList
    @usableFromInline let deliver: (() -> Void)?

    @inlinable
    init(upstream: UpstreamList = UpstreamList(), deliver: (() -> Void)? = nil) {
        self.upstream = upstream
        self.deliver = deliver
    }
}

/// A list that holds one element without an array: a pending promise's continuations and its upstream,
/// where one is the common case. Elements stay in the order they were appended.
@usableFromInline
struct SmallList<Element: Sendable>: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        case empty
        case one(Element)
        case many([Element])
    }

    @usableFromInline
    var storage = Storage.empty

    @inlinable
    init() {}

    /// A list holding `elements` (a combinator's inputs), built in one step.
    @inlinable
    init(_ elements: [Element]) {
        switch elements.count {
        case 0: storage = .empty
        case 1: storage = .one(elements[0])
        default: storage = .many(elements)
        }
    }

    @inlinable
    mutating func append(_ element: Element) {
        switch storage {
        case .empty:
            storage = .one(element)
        case .one(let first):
            storage = .many([first, element])
        case .many(var elements):
            storage = .empty  // keeps the array uniquely referenced, so appending does not copy it
            elements.append(element)
            storage = .many(elements)
        }
    }

    @inlinable
    func forEach(_ body: (Element) -> Void) {
        switch storage {
        case .empty: break
        case .one(let element): body(element)
        case .many(let elements): elements.forEach(body)
        }
    }
}

/// The continuations of a pending promise, in attachment order, without an array for the common case of one.
///
/// Its own type rather than a `SmallList` of closures: a closure stored as a generic element is reabstracted,
/// which costs an allocation per continuation (the awaited round trip's malloc gate catches it).
@usableFromInline
struct CallbackList<Value: Sendable>: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        case empty
        case one(Promise<Value>.Callback)
        case many([Promise<Value>.Callback])
    }

    @usableFromInline
    var storage = Storage.empty

    @inlinable
    init() {}

    @inlinable
    mutating func append(_ callback: @escaping Promise<Value>.Callback) {
        switch storage {
        case .empty:
            storage = .one(callback)
        case .one(let first):
            storage = .many([first, callback])
        case .many(var callbacks):
            storage = .empty  // keeps the array uniquely referenced, so appending does not copy it
            callbacks.append(callback)
            storage = .many(callbacks)
        }
    }

    /// Calls each callback in attachment order.
    @inlinable
    func invoke(with result: Result<Value, any Error>) {
        switch storage {
        case .empty: break
        case .one(let callback): callback(result)
        case .many(let callbacks): for callback in callbacks { callback(result) }
        }
    }
}

/// The promises a pending promise depends on (its parent, an adopted promise, a combinator's inputs).
@usableFromInline
typealias UpstreamList = SmallList<any PromiseNode>
