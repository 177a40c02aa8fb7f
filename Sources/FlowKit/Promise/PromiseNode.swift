/// What a promise needs to know about the promises it depends on, whatever their value type.
@usableFromInline
protocol PromiseNode: AnyObject, Sendable {
    /// Records that one dependent no longer needs this promise; `true` when none does and it should be cancelled.
    func withdrawDependent() -> Bool
    /// Rejects with `CancellationError` if pending and runs the cancellation handlers; returns its upstream.
    func cancelLocally() -> UpstreamList
}

/// The continuations of a pending promise, without an array for the common case of one.
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
struct UpstreamList: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        case empty
        case one(any PromiseNode)
        case many([any PromiseNode])
    }

    @usableFromInline
    var storage = Storage.empty

    @inlinable
    init() {}

    /// A list holding `nodes` (a combinator's inputs), built in one step.
    @inlinable
    init(_ nodes: [any PromiseNode]) {
        switch nodes.count {
        case 0: storage = .empty
        case 1: storage = .one(nodes[0])
        default: storage = .many(nodes)
        }
    }

    @inlinable
    mutating func append(_ node: any PromiseNode) {
        switch storage {
        case .empty:
            storage = .one(node)
        case .one(let first):
            storage = .many([first, node])
        case .many(var nodes):
            storage = .empty
            nodes.append(node)
            storage = .many(nodes)
        }
    }

    @inlinable
    func forEach(_ body: (any PromiseNode) -> Void) {
        switch storage {
        case .empty: break
        case .one(let node): body(node)
        case .many(let nodes): nodes.forEach(body)
        }
    }
}
