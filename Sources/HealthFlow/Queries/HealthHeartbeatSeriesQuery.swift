/// Reads one heartbeat series' beats — the counterpart of `HKHeartbeatSeriesQuery`.
///
/// The data handler is called on the store's callback executor with each beat in time order (`.heartbeat`, its
/// time since the series' start and whether it is preceded by a gap), then once with `.done`; or once with
/// `.error`. HealthKit's handler instead passes `done` along with the last beat; a separate `.done` (as
/// ``HealthElectrocardiogramQuery`` has) tells a series with no beats to read from one whose only beat is at 0.
/// All the calls of one run are made from one callback job, so a stop during the run does not cut it short.
///
/// The series is matched by UUID; there are no beats for a series the store keeps without them
/// (``InMemoryHealthStore`` and ``FileHealthStore`` keep them for series ingested as a
/// ``HeartbeatSeriesRecording``), for an unknown series, or when the app may not read
/// ``HealthObjectType/heartbeatSeries`` (read denial is never revealed). A store that keeps no beats at all
/// reports ``HealthStoreError/unsupportedQueryType(_:query:)``.
///
/// A query object runs once; executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)``.
public final class HealthHeartbeatSeriesQuery: HealthQuery, @unchecked Sendable {
    // @unchecked: restated from HealthQuery; this subclass adds only `let`s of Sendable types.

    /// What the data handler receives.
    public enum Result: Sendable {
        /// The next beat.
        case heartbeat(HealthHeartbeat)
        /// Every beat was delivered.
        case done
        /// The query failed; nothing more follows.
        case error(any Error)
    }

    /// The data handler's type: the query and one result.
    public typealias DataHandler = @Sendable (HealthHeartbeatSeriesQuery, Result) -> Void

    /// The series whose beats are read.
    public let heartbeatSeries: HealthHeartbeatSeries
    private let dataHandler: DataHandler

    /// Makes a heartbeat series query; run it with ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - heartbeatSeries: The series (matched by UUID).
    ///   - dataHandler: Called per beat, then with `.done`; or once with `.error`.
    public init(heartbeatSeries: HealthHeartbeatSeries, dataHandler: @escaping DataHandler) {
        self.heartbeatSeries = heartbeatSeries
        self.dataHandler = dataHandler
        super.init(objectType: .heartbeatSeries, predicate: .uuids([heartbeatSeries.uuid]))
    }

    override func start(on runner: any HealthQueryRunner) {
        let handler = dataHandler
        launchStreaming(
            on: runner, element: { handler(self, .heartbeat($0)) }, done: { handler(self, .done) },
            failed: { handler(self, .error($0)) }
        ) { runner.run(self, in: $0) }
    }
}
