/// Where a store makes its mutations durable before applying them (a durable store's journal).
///
/// The store calls ``append(_:)`` with its state lock held, after the mutation passed the rules and before
/// applying it, in the order mutations are applied; a mutation is applied (and its completion reports
/// success) only when `append` returns. When `append` throws, nothing is applied and the caller gets the
/// error.
protocol MutationLog: Sendable {
    /// Makes `mutation` durable (written and flushed to stable storage) or throws.
    func append(_ mutation: StoreMutation) throws(FileStoreError)
}
