import Foundation
import HealthFlow

/// Reads the series a batch's samples carry — an ECG's voltage measurements, a workout's routes, a heartbeat
/// series' beats — so that the batch sends them with their samples instead of dropping them.
///
/// Memory: series are large beside a sample (15,360 measurements for a 30 s ECG, 64 bytes a route location), so
/// a batch takes at most ``samplesPerBatch(of:)`` samples of a type that carries them: about 4 MB of ECGs; for
/// workouts, their routes (an hour's route at one location a second is 225 KiB); heartbeat series, a few hundred
/// beats of 16 bytes each, at most 1,024.
enum SyncSeriesGathering {
    /// The most samples of `type` one batch takes: 16 ECGs or workouts, 1,024 heartbeat series, or `nil` for a
    /// type whose samples carry no series.
    static func samplesPerBatch(of type: HealthObjectType) -> Int? {
        switch type {
        case .electrocardiogram, .workout: 16
        case .heartbeatSeries: 1_024
        default: nil
        }
    }

    /// Whether samples of `type` carry a series.
    static func carriesSeries(_ type: HealthObjectType) -> Bool {
        samplesPerBatch(of: type) != nil
    }

    /// The room a batch gives `type` when `room` changes are left in it.
    static func room(for type: HealthObjectType, within room: Int) -> Int {
        samplesPerBatch(of: type).map { min(room, $0) } ?? room
    }

    /// `sections` with the series of each of their samples that carries one, read from `store` one sample at a
    /// time, in order.
    /// - Throws: The store's error for a series it could not read.
    static func withSeries(_ sections: [SyncPlanSection], from store: any HealthStore) async throws
        -> [SyncPlanSection]
    {
        var result = sections
        for index in result.indices where carriesSeries(result[index].type) {
            for sample in result[index].changes.samples {
                switch sample {
                case .electrocardiogram(let ecg):
                    result[index].series[ecg.uuid] = .voltageMeasurements(try await store.voltageMeasurements(of: ecg))
                case .workout(let workout):
                    result[index].series[workout.uuid] = .routes(try await store.workoutRoutes(of: workout))
                case .heartbeatSeries(let series):
                    result[index].series[series.uuid] = .heartbeats(try await store.heartbeats(of: series))
                case .quantity, .category, .correlation:
                    break
                }
            }
        }
        return result
    }
}
