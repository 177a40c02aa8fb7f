/// Reads one ECG's voltage measurements — the counterpart of `HKElectrocardiogramQuery`.
///
/// The data handler is called on the store's callback executor with each measurement in recording order
/// (`.measurement`), then once with `.done`; or once with `.error`. All the calls of one run are made from one
/// callback job, so a stop during the run does not cut it short. The ECG is matched by UUID; there are no
/// measurements for an ECG the store keeps without them (``InMemoryHealthStore`` and ``FileHealthStore`` keep
/// them for ECGs ingested as an ``ElectrocardiogramRecording``), for an unknown ECG, or when the app may not
/// read ``HealthObjectType/electrocardiogram`` (read denial is never revealed). A store that keeps no
/// measurements at all reports ``HealthStoreError/unsupportedQueryType(_:query:)``.
///
/// A query object runs once; executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``.
public final class HealthElectrocardiogramQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types.

    /// What the data handler receives (HealthKit's `HKElectrocardiogramQuery.Result`).
    public enum Result: Sendable {
        /// The next measurement.
        case measurement(ElectrocardiogramVoltageMeasurement)
        /// Every measurement was delivered.
        case done
        /// The query failed; nothing more follows.
        case error(any Error)
    }

    /// The data handler's type: the query and one result.
    public typealias DataHandler = @Sendable (HealthElectrocardiogramQuery, Result) -> Void

    /// The ECG whose measurements are read.
    public let electrocardiogram: HealthElectrocardiogram
    private let dataHandler: DataHandler

    /// Makes an ECG query; run it with ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - electrocardiogram: The ECG (matched by UUID).
    ///   - dataHandler: Called per measurement, then with `.done`; or once with `.error`.
    public init(electrocardiogram: HealthElectrocardiogram, dataHandler: @escaping DataHandler) {
        self.electrocardiogram = electrocardiogram
        self.dataHandler = dataHandler
        super.init(objectType: .electrocardiogram, predicate: .uuids([electrocardiogram.uuid]))
    }

    override func start(on runner: any HealthQueryRunner) {
        let handler = dataHandler
        launchStreaming(
            on: runner, element: { handler(self, .measurement($0)) }, done: { handler(self, .done) },
            failed: { handler(self, .error($0)) }
        ) { runner.run(self, in: $0) }
    }
}
