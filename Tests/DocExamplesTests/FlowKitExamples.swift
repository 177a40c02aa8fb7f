import FlowKit
import Testing

/// A ``HeightStore`` that records what it saved.
final class RecordingHeightStore: HeightStore {
    private let saved = LockedState<[Double]>([])

    var savedMetres: [Double] { saved.withLock { $0 } }

    func requestAuthorization() -> Promise<Void> { Promise(value: ()) }

    func save(metres: Double) -> Promise<Void> {
        saved.withLock { $0.append(metres) }
        return Promise(value: ())
    }
}

extension DocExamples {
    /// The examples of `FlowKit.docc/FlowKit.md`.
    @Suite struct FlowKitOverview {
        @Test func savesAHeightInMetresThroughAPromiseChain() async {
            Printed.reset()
            let store = RecordingHeightStore()
            saveHeight(172, to: store)
                .done { print("Saved") }
                .catch { print("Could not save: \($0)") }
            #expect(await Printed.lines(count: 1) == ["Saved"])
            #expect(store.savedMetres == [1.72])
        }

        @Test func refusesANegativeHeightBeforeAskingTheStore() async {
            Printed.reset()
            let store = RecordingHeightStore()
            saveHeight(-1, to: store)
                .done { print("Saved") }
                .catch { print("Could not save: \($0)") }
            #expect(await Printed.lines(count: 1) == ["Could not save: \(PromiseError.validationFailed)"])
            #expect(store.savedMetres.isEmpty)
        }

        @Test func savesAHeightWithTheAsyncTwins() async throws {
            let store = RecordingHeightStore()
            try await timeout(.seconds(30)) {
                try await store.requestAuthorization().value
                try await store.save(metres: 1.72).value
            }
            #expect(store.savedMetres == [1.72])
        }
    }
}
