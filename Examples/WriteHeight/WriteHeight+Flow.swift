import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

extension WriteHeightExample: DrawnExample {
    /// Make the sample, check that sharing height is allowed, save: the promise style's three steps.
    public static func flow(in context: ExampleContext, on queue: OperationQueue) -> OperationChain<[String]> {
        OperationChain(on: queue, name: "write height")
            .then("make the sample") { try heightSample(centimetres: centimetres, in: context) }
            .then("check height", promise: { sample in context.store.availableType(.height).map { sample } })
            .then("save", promise: { sample in context.store.save(.quantity(sample)).map { [savedLine(sample)] } })
    }
}
