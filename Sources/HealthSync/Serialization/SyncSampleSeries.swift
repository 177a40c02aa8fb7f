import HealthFlow

/// The series data a sample carries beside its own fields in a sync batch: an ECG's voltage measurements, a
/// workout's routes or a heartbeat series' beats, as ``HealthFlow/HealthElectrocardiogramQuery``,
/// ``HealthFlow/HealthWorkoutRouteQuery`` and ``HealthFlow/HealthHeartbeatSeriesQuery`` read them from the store.
/// ``SyncBatchWriter/writeSample(_:series:)`` writes them into the sample's JSON (`voltageMeasurements`, `routes`,
/// `heartbeats`); a sample written without its series says so with `null` there.
///
/// Memory: an ECG of 30 s at 512 Hz holds 15,360 measurements (240 KiB); a route, 64 bytes a location; a
/// heartbeat, 16 bytes.
public enum SyncSampleSeries: Hashable, Sendable {
    /// An ECG's voltage measurements, in recording order.
    case voltageMeasurements([ElectrocardiogramVoltageMeasurement])
    /// A workout's routes, in the order the store keeps them.
    case routes([HealthWorkoutRoute])
    /// A heartbeat series' beats, in time order.
    case heartbeats([HealthHeartbeat])

    /// The JSON field that carries the series.
    var field: String {
        switch self {
        case .voltageMeasurements: "voltageMeasurements"
        case .routes: "routes"
        case .heartbeats: "heartbeats"
        }
    }
}
