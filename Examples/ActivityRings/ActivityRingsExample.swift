import ExampleSupport
import Foundation
import HealthFlow

/// Seed 003, "activity rings": a small service object with a completion-handler API (the `MBHealthTracker`
/// style many apps wrap HealthKit in) fetches the activity summaries of a date range; then the same service is
/// used through a promise and through async/await. Prints move / exercise / stand against their goals per day.
public enum ActivityRingsExample: HealthExample {
    /// `activity-rings`.
    public static let name = "activity-rings"
    /// What it shows.
    public static let summary = "activity summaries for the last week through a completion-handler service"
    /// How many days the example shows, ending yesterday.
    public static let days = 7

    /// Loads two weeks of generated activity (seeded, so every run prints the same rings) from the watch.
    public static func prepare(_ context: ExampleContext) async throws {
        guard let store = context.store as? InMemoryHealthStore else { return }
        let start = utcCalendar.date(byAdding: .day, value: -14, to: utcCalendar.startOfDay(for: context.now))
        let data = try HealthDataGenerator(
            configuration: GeneratorConfiguration(days: 14, seed: 3, startDate: start, calendar: utcCalendar)
        ).generate()
        try store.ingest(data)
    }

    /// Runs one style.
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        let tracker = StoreActivityTracker(store: context.store, calendar: utcCalendar)
        let (from, to) = lastDays(before: context.now)
        switch style {
        case .callback:
            return await awaitCallback { activityRingsWithCallbacks(tracker, from: from, to: to, completion: $0) }
        case .promise: return await awaitPromise(activityRingsWithPromises(tracker, from: from, to: to))
        case .async: return await awaitAsync { try await activityRingsAsync(tracker, from: from, to: to) }
        }
    }

    /// The first and last day shown: the ``days`` days before `now`'s day.
    static func lastDays(before now: Date) -> (Date, Date) {
        let today = utcCalendar.startOfDay(for: now)
        let first = utcCalendar.date(byAdding: .day, value: -days, to: today) ?? today
        let last = utcCalendar.date(byAdding: .day, value: -1, to: today) ?? today
        return (first, last)
    }
}

/// The service an app writes once around HealthKit, with a completion-handler API like the seed's
/// `MBHealthTracker`.
public protocol ActivityTracking: Sendable {
    /// Asks for read access to activity summaries, then fetches one summary per day from `start` to `end`
    /// (both included), ascending.
    func fetchActivitySummaries(
        from start: Date, to end: Date, completion: @escaping @Sendable (Result<[ActivitySummary], any Error>) -> Void)
}

/// ``ActivityTracking`` over a ``HealthStore``: an authorization request, then a `HealthActivitySummaryQuery`.
public struct StoreActivityTracker: ActivityTracking {
    let store: any HealthStore
    let calendar: Calendar

    /// A tracker reading `store`, counting days in `calendar`.
    public init(store: any HealthStore, calendar: Calendar) {
        self.store = store
        self.calendar = calendar
    }

    /// See ``ActivityTracking/fetchActivitySummaries(from:to:completion:)``: `completion` runs on the store's
    /// callback executor.
    public func fetchActivitySummaries(
        from start: Date, to end: Date, completion: @escaping @Sendable (Result<[ActivitySummary], any Error>) -> Void
    ) {
        let predicate: ActivitySummaryPredicate
        do {
            predicate = try ActivitySummaryPredicate(start: day(start), end: day(end))
        } catch {
            completion(.failure(error))
            return
        }
        store.requestAuthorization(toShare: [], read: [.activitySummary]) { success, error in
            guard success else {
                completion(.failure(error ?? HealthStoreError.unknown(reason: "authorization did not complete")))
                return
            }
            store.execute(
                HealthActivitySummaryQuery(predicate: predicate) { _, summaries, error in
                    if let error { completion(.failure(error)) } else { completion(.success(summaries ?? [])) }
                })
        }
    }

    private func day(_ date: Date) -> DateComponents {
        var components = calendar.dateComponents([.year, .month, .day], from: date)
        components.calendar = calendar
        return components
    }
}

/// One line per day: `2026-11-13  move 436/500 kcal  exercise 34/30 min  stand 12/12 h`.
func ringLines(_ summaries: [ActivitySummary]) -> [String] {
    summaries.map { summary in
        func amount(_ quantity: HealthQuantity, _ unit: HealthUnit) -> String {
            String(Int(((try? quantity.doubleValue(for: unit)) ?? 0).rounded()))
        }
        let kcal = HealthUnit.kilocalorie()
        let minutes = HealthUnit.minute()
        let count = HealthUnit.count()
        return
            "\(summary.dateString)  move \(amount(summary.activeEnergyBurned, kcal))/\(amount(summary.activeEnergyBurnedGoal, kcal)) kcal"
            + "  exercise \(amount(summary.appleExerciseTime, minutes))/\(amount(summary.exerciseTimeGoal, minutes)) min"
            + "  stand \(amount(summary.appleStandHours, count))/\(amount(summary.standHoursGoal, count)) h"
    }
}
