import Testing

/// Groups every operation-graph suite, so that `swift test --filter OperationGraph` runs them all. Its ten minutes
/// are a hang guard, not a speed check, longer than a whole `swift test` here (5–6 min), so it cannot fire on a test
/// that only waits: Swift Testing counts the time a test waits for the cooperative pool (two threads on a two-core
/// machine), which other targets' long synchronous tests can hold for minutes.
@Suite(.timeLimit(.minutes(10))) enum OperationGraphSuite {}
