import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import SafeWritesExample
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExerciseSafeWritesTests {
    // Exercise 1: bodyTemperaturePitfall(_:_:in:)

    @Test func savesFahrenheitAndStoresTheSameTemperature() async throws {
        let context = ExampleContext.embedded()
        #expect(
            await answers.bodyTemperaturePitfall(98.6, "degF", in: context) == "✓ save 98.6 degF body temperature",
            "a save in degF must succeed and give the ✓ line")
        let saved = try await context.store.samples(of: .bodyTemperature)
        guard case .quantity(let temperature)? = saved.first, saved.count == 1 else {
            Issue.record("expected one body temperature, got \(saved)")
            return
        }
        #expect(
            abs(try temperature.quantity.doubleValue(for: .degreeCelsius()) - 37) < 1e-9, "98.6 °F is stored as 37 °C")
        #expect(
            temperature.startDate == context.now.addingTimeInterval(-60), "the sample must start a minute before now")
        #expect(temperature.endDate == context.now, "the sample must end now")
    }

    @Test func aWrongUnitIsAValidationErrorLineNotACrash() async throws {
        let context = ExampleContext.embedded()
        let line = await answers.bodyTemperaturePitfall(98.6, "kg", in: context)
        #expect(
            line.hasPrefix("✗ save 98.6 kg body temperature → ValidationError: "),
            "a unit of the wrong kind must give the ✗ line with ValidationError")
        #expect(try await context.store.samples(of: .bodyTemperature).isEmpty, "a failed save must store nothing")
    }

    @Test func aRefusalIsItsOwnLine() async {
        let line = await answers.bodyTemperaturePitfall(37, "degC", in: .embedded(policy: .denyAll))
        let refusal = HealthStoreError.authorizationDenied(.bodyTemperature)
        #expect(
            line == "✗ save 37.0 degC body temperature → HealthStoreError: \(refusal)",
            "a refusal must give the ✗ line with the store's error")
    }

    // Exercise 2: runInSeries(_:)

    struct Spilled: Error, CustomStringConvertible {
        var description: String { "spilled" }
    }

    /// Steps whose promises the test settles by hand, reporting each start on a stream.
    final class Script: Sendable {
        let starts: AsyncStream<Int>
        private let continuation: AsyncStream<Int>.Continuation
        private let state = LockedState<(resolvers: [Int: Resolver<Void>], settled: Int, overlaps: [Int])>(([:], 0, []))

        init() {
            (starts, continuation) = AsyncStream.makeStream()
        }

        func step(_ number: Int, _ title: String) -> TourStep {
            TourStep(title: title) {
                let (promise, resolver) = Promise<Void>.pending()
                self.state.withLock { state in
                    // A step may start only once every step before it has settled.
                    if state.settled != number - 1 { state.overlaps.append(number) }
                    state.resolvers[number] = resolver
                }
                self.continuation.yield(number)
                return promise
            }
        }

        func settle(_ number: Int, failing: Bool) {
            let resolver = state.withLock { state in
                state.settled += 1
                return state.resolvers[number]
            }
            if failing { resolver?.reject(Spilled()) } else { resolver?.fulfill() }
        }

        var overlaps: [Int] { state.withLock { $0.overlaps } }
        func finish() { continuation.finish() }
    }

    @Test func runsOneStepAtATimeAndKeepsGoingAfterAFailure() async throws {
        let script = Script()
        let tour = answers.runInSeries([
            script.step(1, "authorize"), script.step(2, "save water"), script.step(3, "save steps"),
        ])
        _ = tour.ensure { script.finish() }  // an answer that settles without running the steps ends the wait too
        var started: [Int] = []
        for await number in script.starts {
            started.append(number)
            script.settle(number, failing: number == 2)
            if number == 3 { script.finish() }
        }
        #expect(started == [1, 2, 3], "each step must start only after the one before it settled")
        #expect(script.overlaps == [], "no step may start while the one before it is still running")
        #expect(
            try await tour.value == ["✓ authorize", "✗ save water → Spilled: spilled", "✓ save steps"],
            "one line per step, in order, going on after a failure")
    }

    @Test func noStepsGiveNoLines() async throws {
        #expect(try await answers.runInSeries([]).value == [], "no steps give no lines")
    }

    @Test func realStepsOnTheStoreInOrder() async throws {
        let context = ExampleContext.embedded()
        let water = try HealthQuantitySample(
            type: .dietaryWater, quantity: HealthQuantity(unit: try HealthUnit(from: "mL"), doubleValue: 250),
            date: context.now, source: context.source)
        let lines = try await answers.runInSeries([
            TourStep(title: "save water before asking") { context.store.save(.quantity(water)) },
            TourStep(title: "authorize water") {
                context.store.requestAuthorization(toShare: [.dietaryWater], read: [])
            },
            TourStep(title: "save water") { context.store.save(.quantity(water)) },
        ]).value
        let notDetermined = HealthStoreError.authorizationNotDetermined(.dietaryWater)
        #expect(
            lines == [
                "✗ save water before asking → HealthStoreError: \(notDetermined)", "✓ authorize water", "✓ save water",
            ])
    }
}
