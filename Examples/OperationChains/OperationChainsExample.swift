import ExampleSupport
import FlowKit
import Foundation

/// Seed 000's `OperationPromise` tests: a `then` chain (1 → 2 → 3) and a fan-out (1 → {2, 3} → 4) over an
/// `OperationQueue` — by hand with `BlockOperation` and `addDependency`, with FlowKit's `OperationChain`, and with
/// async/await (`async let`). Each step records its number; the example prints the order it observed.
public enum OperationChainsExample: HealthExample {
    /// `operation-chains`.
    public static let name = "operation-chains"
    /// What it shows.
    public static let summary =
        "then chains and when fan-out over an OperationQueue: by hand, OperationChain, async let"

    /// Runs one style.
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        switch style {
        case .callback: await awaitCallback { operationChainsWithCallbacks(completion: $0) }
        case .promise: await awaitPromise(operationChainsWithPromises())
        case .async: await awaitAsync { try await operationChainsAsync() }
        }
    }
}

/// The numbers the steps record, in the order they ran (thread-safe: steps of a fan-out run concurrently).
public final class StepLog: Sendable {
    private let steps = LockedState<[Int]>([])

    /// An empty log.
    public init() {}

    /// Records that step `number` ran.
    public func record(_ number: Int) {
        steps.withLock { $0.append(number) }
    }

    /// The steps in the order they ran.
    public var order: [Int] {
        steps.withLock { $0 }
    }
}

/// Describes a chain's order as `1 → 2 → 3`, or a fan-out's as `1 → {2, 3} → 4` when the middle steps ran
/// (in any order) strictly between the first and the last; anything else is printed as it happened.
func describe(chain: [Int], fanOut: [Int]) -> [String] {
    let chainLine = chain.map(String.init).joined(separator: " → ")
    let fanOutLine: String
    if fanOut.count == 4, fanOut.first == 1, fanOut.last == 4, Set(fanOut[1...2]) == [2, 3] {
        fanOutLine = "1 → {2, 3} → 4"
    } else {
        fanOutLine = "out of order: \(fanOut)"
    }
    return ["then chain: \(chainLine)", "fan-out: \(fanOutLine)"]
}
