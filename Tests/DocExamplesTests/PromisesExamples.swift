import FlowKit
import Foundation
import Testing

extension DocExamples {
    /// The examples of `FlowKit.docc/Promises.md`.
    @Suite struct Promises {
        @Test func wrapsACallbackAndAResultCompletionHandler() async throws {
            let scale = Scale(reading: 172)
            let loader = ProfileLoader(profile: Profile(name: "Ada"))
            let height = Promise<Double> { fulfill, reject in
                scale.measure { centimetres, error in
                    if let error { reject(error) } else { fulfill(centimetres ?? 0) }
                }
            }

            let profile = Promise<Profile> { resolver in
                loader.load(completion: resolver.resolve)  // (Result<Profile, any Error>) -> Void
            }
            #expect(try await height.value == 172)
            #expect(try await profile.value == Profile(name: "Ada"))
        }

        @Test func aPendingPromiseIsSettledByItsResolverFromElsewhere() async throws {
            let (promise, resolver) = Promise<Int>.pending()
            DispatchQueue.global().async { resolver.fulfill(42) }
            #expect(try await promise.value == 42)
        }

        @Test func theFirstResolutionWinsAndLaterOnesAreIgnored() async {
            Printed.reset()
            let (promise, resolver) = Promise<Int>.pending()
            resolver.fulfill(1)
            resolver.fulfill(2)  // ignored
            resolver.reject(CancellationError())  // ignored
            print(promise)  // Promise<Int>(fulfilled: 1)
            #expect(await Printed.lines(count: 1) == ["Promise<Int>(fulfilled: 1)"])
        }

        @Test func aContinuationAttachedAfterSettlementStillRuns() async {
            Printed.reset()
            let settled = Promise(value: 21)
            // … much later …
            _ = settled.map { $0 * 2 }.done { print($0) }  // prints 42
            #expect(await Printed.lines(count: 1) == ["42"])
        }

        @Test func aHundredThousandStepChainRunsInConstantStackDepth() async {
            Printed.reset()
            let (start, resolver) = Promise<Int>.pending()
            var count = start
            for _ in 0..<100_000 {
                count = count.map(on: .immediate) { $0 + 1 }
            }
            resolver.fulfill(0)  // runs 100,000 steps in a loop, not 100,000 frames deep
            _ = count.done { print($0) }  // 100000
            #expect(await Printed.lines(count: 1) == ["100000"])
        }
    }
}
