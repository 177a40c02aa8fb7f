import FlowKit
import Foundation
import HealthFlow

/// The FlowKit tour: the same small health task in three styles, then the combinators, timeouts, retries and
/// cancellation, each step printed with its style, duration and outcome.
struct FlowKitTour: Sendable {
    let output: any DemoOutput

    private func step(
        _ style: String, _ description: String, expectFailure: Bool = false,
        _ body: @Sendable () async throws -> String
    ) async -> Bool {
        await DemoTrace(output: output).step(style, description, expectFailure: expectFailure, body)
    }

    /// Runs every step; returns whether all of them behaved as expected.
    func run() async -> Bool {
        output.line(
            "FlowKit tour — one health task in three styles, then combinators, retries, timeouts and cancellation\n")
        let scale = SimulatedScale()
        let store = SimulatedStore()
        var ok = true
        ok =
            await step("callback", "measure → convert cm to m → save (nested callbacks)") {
                try await withCheckedThrowingContinuation { continuation in
                    scale.measureHeight { centimetres, error in
                        guard let centimetres else { return continuation.resume(throwing: error ?? DemoError.noValue) }
                        do {
                            let metres = try HealthUnit.convert(centimetres, from: HealthUnit(from: "cm"), to: .meter())
                            store.save(metres) { success, error in
                                if success {
                                    continuation.resume(returning: "saved \(metres) m")
                                } else {
                                    continuation.resume(throwing: error ?? DemoError.noValue)
                                }
                            }
                        } catch {
                            continuation.resume(throwing: error)
                        }
                    }
                }
            } && ok
        ok =
            await step("promise", "the same task as one chain with a single catch") {
                try await Promise<Double> { scale.measureHeight(completion: $0.resolve) }
                    .map { try HealthUnit.convert($0, from: HealthUnit(from: "cm"), to: .meter()) }
                    .then { metres in
                        Promise<Void> { store.save(metres, completion: $0.resolve) }.map { "saved \(metres) m" }
                    }
                    .value
            } && ok
        ok =
            await step("async", "the same task with async/await") {
                let centimetres = try await Promise<Double> { scale.measureHeight(completion: $0.resolve) }.value
                let metres = try HealthUnit.convert(centimetres, from: HealthUnit(from: "cm"), to: .meter())
                try await Promise<Void> { store.save(metres, completion: $0.resolve) }.value
                return "saved \(metres) m"
            } && ok
        ok =
            await step("promise", "when(fulfilled:) fans out three reads and keeps their order") {
                let reads = ["steps", "water", "sleep"].map { name in
                    Promise<String> { store.read(name, completion: $0.resolve) }
                }
                return try await firstly { when(fulfilled: reads) }.value.joined(separator: ", ")
            } && ok
        ok =
            await step("async", "the async twin: a task group with the same order") {
                let reads = ["steps", "water", "sleep"].map { name in
                    { @Sendable () async throws -> String in
                        try await Promise<String> { store.read(name, completion: $0.resolve) }.value
                    }
                }
                return try await when(fulfilled: reads).joined(separator: ", ")
            } && ok
        ok =
            await step("promise", "retry with exponential back-off: a flaky upload succeeds on attempt 3") {
                let flaky = FlakyService(failures: 2)
                let receipt: Promise<String> = firstly {
                    retry(
                        attempts: 4, backoff: .exponential(initial: .milliseconds(5), jitter: .equal)
                    ) { Promise { flaky.upload(completion: $0.resolve) } }
                }
                return try await receipt.value
            } && ok
        ok =
            await step("async", "timeout: a stalled call is abandoned and cancelled after 50 ms", expectFailure: true) {
                try await timeout(.milliseconds(50)) { Promise<String> { _ in } }
            } && ok
        ok =
            await step("promise", "cancel the end of a chain: the work at its start is stopped", expectFailure: true) {
                let stopped = LockedState(false)
                let work = Promise<Int> { resolver in resolver.onCancel { stopped.withLock { $0 = true } } }
                let end = work.map { $0 + 1 }.map { "\($0)" }
                end.cancel()
                _ = await end.settled
                if stopped.withLock({ $0 }) { throw DemoError.cancelledAsExpected }
                return "the work was not stopped"
            } && ok
        output.line(ok ? "\nAll tour steps behaved as expected." : "\nSome tour steps did not behave as expected.")
        return ok
    }
}

enum DemoError: Error, CustomStringConvertible {
    case noValue
    case transient(attempt: Int)
    case cancelledAsExpected

    var description: String {
        switch self {
        case .noValue: "the callback returned no value"
        case .transient(let attempt): "transient failure on attempt \(attempt)"
        case .cancelledAsExpected: "CancellationError reached the chain and the cancel handler stopped the work"
        }
    }
}

/// A callback API in HealthKit's style: answers later, on another queue.
struct SimulatedScale: Sendable {
    func measureHeight(completion: @escaping @Sendable (Double?, (any Error)?) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { completion(172, nil) }
    }
}

struct SimulatedStore: Sendable {
    func save(_ metres: Double, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { completion(true, nil) }
    }

    func read(_ name: String, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        let delay = Int.random(in: 1...6)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { completion(name, nil) }
    }
}

/// Fails a set number of times, then succeeds.
final class FlakyService: Sendable {
    private let attempts = LockedState(0)
    private let failures: Int

    init(failures: Int) {
        self.failures = failures
    }

    func upload(completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        let attempt = attempts.withLock { count in
            count += 1
            return count
        }
        DispatchQueue.global().async {
            if attempt <= self.failures {
                completion(nil, DemoError.transient(attempt: attempt))
            } else {
                completion("uploaded on attempt \(attempt)", nil)
            }
        }
    }
}
