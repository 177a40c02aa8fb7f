import Foundation
import HealthFlow

/// Reads the series a batch's samples carry — an ECG's voltage measurements, a workout's routes — so that the
/// batch sends them with their samples instead of dropping them.
///
/// Memory: series are large beside a sample (15,360 measurements for a 30 s ECG, 64 bytes a route location), so
/// a batch takes at most ``samplesPerBatch`` samples of a type that carries them: about 4 MB of ECGs; for
/// workouts, their routes (an hour's route at one location a second is 225 KiB).
enum SyncSeriesGathering {
    /// The most samples of a series-carrying type one batch takes.
    static let samplesPerBatch = 16

    /// Whether samples of `type` carry a series.
    static func carriesSeries(_ type: HealthObjectType) -> Bool {
        type == .electrocardiogram || type == .workout
    }

    /// The room a batch gives `type` when `room` changes are left in it.
    static func room(for type: HealthObjectType, within room: Int) -> Int {
        carriesSeries(type) ? min(room, samplesPerBatch) : room
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
                case .quantity, .category, .correlation, .heartbeatSeries:
                    break
                }
            }
        }
        return result
    }
}
