import FlowKit
import Testing

/// A height in centimetres, checked before it is saved.
struct HeightSample: Sendable {
    struct OutOfRange: Error {}

    var centimetres: Double

    static func check(centimetres: Double) throws {
        guard (30...300).contains(centimetres) else { throw OutOfRange() }
    }
}

/// A store with HealthKit-shaped completion handlers, answering at once.
final class LegacyHealthStore: Sendable {
    private let stored = LockedState<[Double]>([])

    func requestAuthorization(
        toShare: Set<String>, read: Set<String>, completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        completion(true, nil)
    }

    func save(_ sample: HeightSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        stored.withLock { $0.append(sample.centimetres) }
        completion(true, nil)
    }

    func fetchHeights(completion: @escaping @Sendable ([Double]?, (any Error)?) -> Void) {
        completion(stored.withLock { $0 }, nil)
    }
}

extension LegacyHealthStore {
    func requestAuthorization(toShare: Set<String>, read: Set<String>) -> Promise<Void> {
        Promise { resolver in requestAuthorization(toShare: toShare, read: read, completion: resolver.resolve) }
    }
    func save(_ sample: HeightSample) -> Promise<Void> {
        Promise { resolver in save(sample, withCompletion: resolver.resolve) }  // (Bool, Error?)
    }
    func heights() -> Promise<[Double]> {
        Promise { resolver in fetchHeights(completion: resolver.resolve) }  // ([Double]?, Error?)
    }
}

extension LegacyHealthStore {
    func requestAuthorization() -> Promise<Void> { requestAuthorization(toShare: ["height"], read: ["height"]) }
}

/// The error a sync reports when it has no heights to send.
enum SyncError: Error {
    case heightsUnavailable(underlying: any Error)
}

extension DocExamples {
    /// The examples of `FlowKit.docc/ChainingAndErrors.md`.
    @Suite struct ChainingAndErrors {
        @Test func aChainChecksSavesFetchesAndAlwaysStopsTheSpinner() async {
            Printed.reset()
            let spinner = Spinner()
            let store = LegacyHealthStore()
            spinner.start()
            firstly {
                try HeightSample.check(centimetres: 172)
                return store.requestAuthorization()
            }
            .then { store.save(HeightSample(centimetres: 172)) }
            .then { store.heights() }
            .compactMap { $0.last }
            .ensure { spinner.stop() }
            .done { latest in print("Latest height: \(latest) cm") }
            .catch { error in print("Could not save: \(error)") }
            #expect(
                await Printed.lines(count: 3) == ["spinner started", "spinner stopped", "Latest height: 172.0 cm"])
        }

        @Test func recoverFallsBackAndMapErrorTranslatesWhatIsLeft() async throws {
            struct Offline: Error {}
            let failing = HeightSource { Promise(error: Offline()) }
            for (store, cache) in [(failing, HeightSource { Promise(value: [1.7]) }), (failing, failing)] {
                let heights = store.heights()
                    .recover { _ in cache.heights() }  // a Promise<[Double]>: fall back to the cache
                    .mapError { SyncError.heightsUnavailable(underlying: $0) }
                switch await heights.settled {
                case .success(let values): #expect(values == [1.7])
                case .failure(let error): #expect(error is SyncError)
                }
            }
        }

        @Test func catchWithAllErrorsSeesCancellation() async {
            Printed.reset()
            let log: @Sendable (String) -> Void = { print($0) }
            let alert: @Sendable (any Error) -> Void = { print("alert: \($0)") }
            let upload = Promise<Int>.pending().promise
            upload.catch(policy: .allErrors) { error in
                if error.isCancellation { log("upload cancelled") } else { alert(error) }
            }
            upload.cancel()
            #expect(await Printed.lines(count: 1) == ["upload cancelled"])
        }
    }
}
