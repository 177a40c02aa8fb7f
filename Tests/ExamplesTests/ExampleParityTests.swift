import ActivityRingsExample
import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import ImportAndSummarizeExample
import ObserveAndUploadExample
import OperationChainsExample
import ReadHeightsExample
import SafeWritesExample
import Testing
import WriteHeightExample

/// Every example must do exactly the same thing in its three styles: run each style against the same store
/// (prepared once) and compare the outcomes, values and errors alike.
@Suite struct ExampleParityTests {
    static let examples: [any HealthExample.Type] = [
        WriteHeightExample.self, ReadHeightsExample.self, OperationChainsExample.self, SafeWritesExample.self,
        ObserveAndUploadExample.self,
        ActivityRingsExample.self, ImportAndSummarizeExample.self,
    ]

    /// Each example under each permission answer the tests care about.
    static let policies: [(String, AuthorizationPolicy)] = [("grant all", .grantAll), ("deny all", .denyAll)]

    static func outcomes(
        _ example: any HealthExample.Type, policy: AuthorizationPolicy
    ) async -> [ExampleStyle: ExampleOutcome] {
        let context = ExampleContext.embedded(policy: policy)
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try? await example.prepare(context)
        var outcomes: [ExampleStyle: ExampleOutcome] = [:]
        for style in ExampleStyle.allCases {
            outcomes[style] = await example.run(style, in: context)
        }
        return outcomes
    }

    @Test(arguments: 0..<7)
    func threeStylesAgreeWhenEverythingIsAllowed(example index: Int) async {
        let outcomes = await Self.outcomes(Self.examples[index], policy: .grantAll)
        #expect(outcomes[.callback] == outcomes[.promise])
        #expect(outcomes[.promise] == outcomes[.async])
    }

    @Test(arguments: 0..<7)
    func threeStylesAgreeWhenEverythingIsDenied(example index: Int) async {
        let outcomes = await Self.outcomes(Self.examples[index], policy: .denyAll)
        #expect(outcomes[.callback] == outcomes[.promise])
        #expect(outcomes[.promise] == outcomes[.async])
    }

    /// The examples whose lessons draw their flow as an operation chain.
    static let drawn: [any DrawnExample.Type] = [
        WriteHeightExample.self, ReadHeightsExample.self, SafeWritesExample.self, ActivityRingsExample.self,
        ObserveAndUploadExample.self,
    ]

    @Test(arguments: 0..<5, [AuthorizationPolicy.grantAll, .denyAll])
    func theDrawnChainDoesWhatThePromiseStyleDoes(example index: Int, policy: AuthorizationPolicy) async throws {
        let example = Self.drawn[index]
        let context = ExampleContext.embedded(policy: policy)
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try? await example.prepare(context)
        let promised = await example.run(.promise, in: context)
        let chain = try example.flow(in: context, on: OperationQueue())
        let drawn = await WriteHeightExample.awaitPromise(chain.start())
        #expect(drawn == promised, "\(example.name): the lesson's chain must end as the promise style does")
    }
}

@Suite struct WriteHeightExampleTests {
    @Test func savesTheHeightInMetres() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        #expect(await WriteHeightExample.run(.async, in: context) == .lines(["Saved! 1.72 m"]))
        let heights = try await context.store.samples(of: .height)
        #expect(heights.count == 1)
    }

    @Test func reportsTheRefusalWhenSharingIsDenied() async {
        let outcome = await WriteHeightExample.run(.callback, in: .embedded(policy: .denyAll))
        #expect(outcome == .failure(String(describing: HealthStoreError.authorizationDenied(.height))))
    }

    @Test func rejectsANegativeHeightBeforeTouchingTheStore() async {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        for style in ExampleStyle.allCases {
            let outcome = await awaitNegative(style, context)
            guard case .failure(let message) = outcome else {
                Issue.record("expected a validation error, got \(outcome)")
                continue
            }
            #expect(message.contains("height"))
        }
        #expect(context.store.authorizationStatus(for: .height) == .notDetermined)
    }

    private func awaitNegative(_ style: ExampleStyle, _ context: ExampleContext) async -> ExampleOutcome {
        switch style {
        case .callback:
            await WriteHeightExample.awaitCallback { writeHeightWithCallbacks(-5, in: context, completion: $0) }
        case .promise:
            await WriteHeightExample.awaitPromise(writeHeightWithPromises(-5, in: context))
        case .async:
            await WriteHeightExample.awaitAsync { try await writeHeightAsync(-5, in: context) }
        }
    }
}

@Suite struct ReadHeightsExampleTests {
    @Test func listsHeightsNewestFirst() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ReadHeightsExample.prepare(context)
        let outcome = await ReadHeightsExample.run(.promise, in: context)
        #expect(outcome == .lines(["1.72 m  2026-10-21", "1.71 m  2025-11-20", "1.7 m  2024-11-20"]))
    }
}

@Suite struct SafeWritesExampleTests {
    @Test func showsTheTypedErrorForEachPitfallAndSuccessElsewhere() async {
        let outcome = await SafeWritesExample.run(.async, in: .embedded())
        guard case .lines(let lines) = outcome else {
            Issue.record("expected lines, got \(outcome)")
            return
        }
        let marks = lines.map { String($0.prefix(1)) }
        #expect(marks == ["✓", "✗", "✓", "✗", "✗", "✓", "✗", "✓", "✗", "✓", "✓", "✗", "✓"])
        #expect(lines[1].contains("ValidationError") && lines[1].contains("stepCount"))
        #expect(lines[3].contains("HealthStoreError") && lines[3].contains("appleExerciseTime"))
        #expect(lines[4].contains("bloodPressure"))
        #expect(lines[6].contains("ValidationError") && lines[6].contains("insulin"))
        #expect(lines[8].contains("UnitError") && lines[8].contains("mL/kg/min"))
        #expect(lines[11].contains("ValidationError") && lines[11].contains("9"))
    }
}

@Suite struct ActivityRingsExampleTests {
    @Test func printsOneLineOfRingsPerDayOfTheLastWeek() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ActivityRingsExample.prepare(context)
        guard case .lines(let lines) = await ActivityRingsExample.run(.async, in: context) else {
            Issue.record("expected lines")
            return
        }
        #expect(lines.count == 7)
        #expect(lines.first?.hasPrefix("2026-11-13") == true && lines.last?.hasPrefix("2026-11-19") == true)
        #expect(lines.allSatisfy { $0.contains("/500 kcal") && $0.contains("/30 min") && $0.contains("/12 h") })
    }

    @Test func showsNoRingsWhenReadingIsDeniedWithoutRevealingIt() async throws {
        let context = ExampleContext.embedded(policy: .denyAll)
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ActivityRingsExample.prepare(context)
        #expect(await ActivityRingsExample.run(.callback, in: context) == .lines([]))
    }
}

@Suite struct OperationChainsExampleTests {
    /// The seed's own tests, in every style, repeated to give a wrong order a chance to show.
    @Test func chainsRunInOrderAndTheFanOutStartsWithOneAndEndsWithFour() async {
        for _ in 0..<20 {
            for style in ExampleStyle.allCases {
                let outcome = await OperationChainsExample.run(style, in: .embedded())
                #expect(outcome == .lines(["then chain: 1 → 2 → 3", "fan-out: 1 → {2, 3} → 4"]), "\(style)")
            }
        }
    }
}
