import Testing

/// Groups every operation-graph suite, so that `swift test --filter OperationGraph` runs them all.
@Suite(.timeLimit(.minutes(3))) enum OperationGraphSuite {}
