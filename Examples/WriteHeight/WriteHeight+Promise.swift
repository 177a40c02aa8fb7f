import ExampleSupport
import FlowKit
import HealthFlow

/// The same steps as one promise chain: each step returns the next promise, and every error — a bad unit,
/// a refusal, a failed save — falls through to the caller's single `catch`.
///
/// - Parameters:
///   - centimetres: The height.
///   - context: The store and app.
/// - Returns: A promise of the printed lines.
public func writeHeightWithPromises(_ centimetres: Double, in context: ExampleContext) -> Promise<[String]> {
    firstly {
        Promise(value: try heightSample(centimetres: centimetres, in: context))
    }.then { sample in
        context.store.availableType(.height).map { sample }
    }.then { sample in
        context.store.save(.quantity(sample)).map { [savedLine(sample)] }
    }
}
