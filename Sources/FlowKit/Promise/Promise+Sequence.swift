/// Runs one asynchronous step per element, strictly one after another, threading an accumulator through.
///
/// - Parameters:
///   - items: The elements, visited in order.
///   - initial: The starting accumulator.
///   - executor: Where `next` runs; ``FlowDefaults/executor`` when `nil`.
///   - next: Starts the step for one element given the accumulator so far.
/// - Returns: The final accumulator; the first error stops the series.
/// - Complexity: O(n); each step starts only after the previous one fulfilled.
public func reduceSequentially<Element: Sendable, Accumulator: Sendable>(
    _ items: some Sequence<Element>,
    _ initial: Accumulator,
    on executor: FlowExecutor? = nil,
    _ next: @escaping @Sendable (Accumulator, Element) throws -> Promise<Accumulator>
) -> Promise<Accumulator> {
    var chain = Promise(value: initial)
    for item in items {
        chain = chain.then(on: executor) { accumulator in try next(accumulator, item) }
    }
    return chain
}

/// Runs one asynchronous step per element, strictly one after another.
///
/// - Parameters:
///   - items: The elements, visited in order.
///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
///   - body: Starts the step for one element.
/// - Returns: A promise fulfilled after the last step; the first error stops the series.
/// - Complexity: O(n).
public func forEachSequentially<Element: Sendable>(
    _ items: some Sequence<Element>,
    on executor: FlowExecutor? = nil,
    _ body: @escaping @Sendable (Element) throws -> Promise<Void>
) -> Promise<Void> {
    reduceSequentially(items, (), on: executor) { _, item in try body(item) }
}
