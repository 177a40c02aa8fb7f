import Foundation
import HealthFlow
import Testing

extension DocExamples {
    /// The examples of the doc comments of `HealthStore`, `HealthStoreError`, `HealthChangeHistory` and
    /// `FileSystemPath`.
    @Suite struct HealthStoreComments {
        let app = HealthAppConfiguration(
            bundleIdentifier: "com.example.steps", name: "Steps",
            healthShareUsageDescription: "Shows your steps.", healthUpdateUsageDescription: "Logs your walks.")

        func steps() throws -> HealthQuantitySample {
            try HealthQuantitySample(
                type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 1_200), date: Date(),
                source: app.source)
        }

        @Test func theCallbackAPIAuthorizesSavesAndQueriesAsHealthKitDoes() throws {
            let steps = try steps()
            let store: any HealthStore = InMemoryHealthStore(configuration: app, callbackExecutor: .immediate)
            let failures = Recording<String>()
            let shown = Recording<[UUID]>()
            @Sendable func fail(_ error: (any Error)?) { failures.record("\(error.map { "\($0)" } ?? "no error")") }
            @Sendable func show(_ samples: [HealthSample]) { shown.record(samples.map(\.uuid)) }

            store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) { success, error in
                guard success else { return fail(error) }
                store.save(.quantity(steps)) { saved, error in
                    guard saved else { return fail(error) }
                    store.execute(HealthSampleQuery(sampleType: .stepCount) { _, samples, _ in show(samples ?? []) })
                }
            }
            #expect(failures.recorded.isEmpty)
            #expect(shown.recorded == [[steps.uuid]])
        }

        @Test func aSwitchOverHealthStoreErrorTellsNeverAskedFromDenied() throws {
            let steps = try steps()
            let asked = Recording<HealthObjectType>()
            let hints = Recording<String>()
            let reports = Recording<String>()
            @Sendable func askForPermission(_ type: HealthObjectType) { asked.record(type) }
            @Sendable func showSettingsHint() { hints.record("settings") }
            @Sendable func report(_ message: String) { reports.record(message) }
            let neverAsked = InMemoryHealthStore(configuration: app, callbackExecutor: .immediate)
            let denied = InMemoryHealthStore(
                configuration: app, policy: .deny(share: [.stepCount]), callbackExecutor: .immediate)
            denied.requestAuthorization(toShare: [.stepCount], read: []) { _, _ in }
            let readOnly = try HealthQuantitySample(
                type: .appleExerciseTime, quantity: HealthQuantity(unit: .minute(), doubleValue: 30), date: Date(),
                source: app.source)

            for (store, sample) in [(neverAsked, steps), (denied, steps), (neverAsked, readOnly)] {
                store.save(.quantity(sample)) { success, error in
                    switch error as? HealthStoreError {
                    case .authorizationNotDetermined(let type)?: askForPermission(type)
                    case .authorizationDenied?: showSettingsHint()
                    case let error? where error.code == .invalidArgument: report(error.description)
                    default: break
                    }
                }
            }
            #expect(asked.recorded == [.stepCount])
            #expect(hints.recorded == ["settings"])
            #expect(reports.recorded == ["appleExerciseTime is read-only: apps may not request to share it"])
        }

        struct SyncState {
            var checkpoint: HealthHistoryCheckpoint?
        }

        @Test func aCheckpointOfAnotherStoreIsAMismatch() async throws {
            Printed.reset()
            let first = InMemoryHealthStore(configuration: app)
            try first.ingest([.quantity(try steps())])
            let state = SyncState(checkpoint: first.historyCheckpoint())
            let recreated = InMemoryHealthStore(configuration: app)
            let store: any HealthStore = recreated

            if let history = store as? any HealthChangeHistory, let saved = state.checkpoint,
                let mismatch = history.mismatch(with: saved)
            {
                print("sending everything again: \(mismatch)")
            }
            #expect(
                await Printed.lines(count: 1) == [
                    "sending everything again: it was made for store \(first.storeID.uuidString), "
                        + "this is store \(recreated.storeID.uuidString)"
                ])
            #expect(first.mismatch(with: first.historyCheckpoint()) == nil)
        }

        @Test func aPathThatIsNotUTF8KeepsItsBytesAndHasNoURL() throws {
            let path = try FileSystemPath(bytes: Array("/tmp/caf".utf8) + [0xE9])  // "café" in Latin-1
            #expect(!path.isValidUTF8)
            #expect(path.url == nil)  // a URL would name another file
            #expect(path.description == "/tmp/caf\u{FFFD}")  // for display only
            #expect(path.appending("data").bytes == Array("/tmp/caf".utf8) + [0xE9] + Array("/data".utf8))
        }
    }
}
