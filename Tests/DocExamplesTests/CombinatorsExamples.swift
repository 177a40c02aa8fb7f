import FlowKit
import Testing

extension DocExamples {
    /// The examples of `FlowKit.docc/Combinators.md`, each in a synchronous `example()`: the promise forms are
    /// unavailable in asynchronous code.
    @Suite struct Combinators {
        /// Samples per type, as a store's promise API returns them.
        struct SampleSource: Sendable {
            func samples(of type: String) -> Promise<[Double]> { Promise(value: [1, 2]) }
            func profile() -> Promise<Profile> { Promise(value: Profile(name: "cached")) }
            func download(_ path: String) -> Promise<String> { Promise(error: BatchUploader.Rejected()) }
        }

        @Test func whenFulfilledGathersEveryValueInInputOrder() async {
            Printed.reset()
            func example() {
                let store = SampleSource()
                let types = ["stepCount", "heartRate", "bodyMass"]
                when(fulfilled: types.map { store.samples(of: $0) })
                    .done { perType in print("fetched \(perType.count) types") }
                    .catch { print("one type failed: \($0)") }
            }
            example()
            #expect(await Printed.lines(count: 1) == ["fetched 3 types"])
        }

        @Test func whenFulfilledOverATupleKeepsEachValuesType() async {
            Printed.reset()
            func example() {
                func fetchHeight() -> Promise<Double> { Promise(value: 2) }
                func fetchMass() -> Promise<Double> { Promise(value: 80) }
                when(fulfilled: fetchHeight(), fetchMass()).done { height, mass in
                    print("BMI: \(mass / (height * height))")
                }.catch { print("no BMI: \($0)") }
            }
            example()
            #expect(await Printed.lines(count: 1) == ["BMI: 20.0"])
        }

        @Test func whenResolvedWaitsForEveryOutcome() async {
            Printed.reset()
            func example() {
                let uploader = BatchUploader(failing: [2])
                let batches = (1...3).map { Batch(id: $0, count: 10) }
                _ = when(resolved: batches.map { uploader.send($0) }).done { results in
                    let failed = results.filter { if case .failure = $0 { true } else { false } }
                    print("\(failed.count) of \(results.count) batches failed")
                }
            }
            example()
            #expect(await Printed.lines(count: 1) == ["1 of 3 batches failed"])
        }

        @Test func raceTakesTheFirstToSettle() async {
            Printed.reset()
            func example() {
                let cache = SampleSource()
                let network = ProfileSource { Promise<Profile>.pending().promise }
                let show: @Sendable (Profile) -> Void = { print($0.name) }
                race(cache.profile(), network.profile()).done { show($0) }.catch { print("no profile: \($0)") }
            }
            example()
            #expect(await Printed.lines(count: 1) == ["cached"])
        }

        @Test func anyRejectsWithEveryErrorWhenAllFail() async {
            Printed.reset()
            func example() {
                let path = "/export.zip"
                let mirrors = [SampleSource(), SampleSource()]
                any(mirrors.map { $0.download(path) })
                    .catch { error in
                        if case PromiseError.allFailed(let errors) = error {
                            print("all \(errors.count) mirrors failed")
                        }
                    }
            }
            example()
            #expect(await Printed.lines(count: 1) == ["all 2 mirrors failed"])
        }

        @Test func reduceSequentiallyRunsOneStepAfterAnother() async {
            Printed.reset()
            let uploader = BatchUploader()
            let batches = (1...3).map { Batch(id: $0, count: $0 * 10) }
            reduceSequentially(batches, 0) { uploaded, batch in
                uploader.send(batch).map { _ in uploaded + batch.count }
            }
            .done { print("uploaded \($0) samples, in order") }
            .catch { print("the series stopped: \($0)") }
            #expect(await Printed.lines(count: 1) == ["uploaded 60 samples, in order"])
            #expect(uploader.sent.recorded == [1, 2, 3])
        }
    }
}
