import FlowKit
import Foundation
import Testing

/// A label that prints the text it is given.
struct Label: Sendable {
    var text: String {
        get { "" }
        nonmutating set { print("label: \(newValue)") }
    }
}

extension DocExamples {
    /// The examples of `FlowKit.docc/Executors.md`.
    @Suite struct Executors {
        func fetchProfileData() -> Promise<Data> { Promise(value: Data(#"{"name": "Ada"}"#.utf8)) }

        @Test func decodesOffTheDefaultQueueAndShowsOnTheMainQueue() async {
            Printed.reset()
            let nameLabel = Label()
            fetchProfileData()
                // Decode off the default queue, show on the main queue.
                .map(on: .queue(.global())) { try JSONDecoder().decode(Profile.self, from: $0) }
                .done(on: .main) { profile in nameLabel.text = profile.name }
                .catch(on: .main) { error in nameLabel.text = "\(error)" }
            #expect(await Printed.lines(count: 1) == ["label: Ada"])
        }

        /// Compiled, not run: it changes the process-wide default, which the tests running beside it read.
        func changingTheDefaultExecutor() {
            FlowDefaults.executor = .main
            // …
            FlowDefaults.executor = .flowDefault
        }

        @Test func aCustomExecutorSeesEveryJobAndRunsIt() async throws {
            Printed.reset()
            let traced = FlowExecutor.custom { job in
                print("step submitted")
                DispatchQueue.global().async(execute: job)
            }
            let doubled = Promise(value: 21).map(on: traced) { $0 * 2 }
            #expect(try await doubled.value == 42)
            #expect(await Printed.lines(count: 1) == ["step submitted"])
        }
    }
}
