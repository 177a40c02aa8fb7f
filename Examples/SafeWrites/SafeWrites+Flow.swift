import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

extension SafeWritesExample: DrawnExample {
    /// One node per pitfall, one after another; each turns its error into a line, so the series always goes on.
    public static func flow(in context: ExampleContext, on queue: OperationQueue) -> OperationChain<[String]> {
        pitfalls.reduce(OperationChain(on: queue, name: "safe writes").then("start") { [String]() }) {
            chain, pitfall in
            chain.then(
                pitfall.title,
                promise: { lines in
                    attempt(pitfall, in: context)
                        .map { lines + [pitfall.line(.success(()))] }
                        .recover { error in lines + [pitfall.line(.failure(error))] }
                })
        }
    }
}
