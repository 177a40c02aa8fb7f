import Testing

/// Groups every operation-graph suite, so that `swift test --filter OperationGraph` runs them all. Its three minutes
/// are a hang guard, not a speed check: Swift Testing counts the time a test waits for the shared thread pool,
/// which the other targets' tests can hold for more than a minute on a loaded two-core machine.
@Suite(.timeLimit(.minutes(3))) enum OperationGraphSuite {}
