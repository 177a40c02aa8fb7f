import Foundation

/// The store-independent part of running activity summary queries: which samples to gather, which days to
/// summarise, and the builder's errors as ``HealthStoreError``s. Stores gather the samples under their lock
/// and call ``summaries(from:predicate:goals:)`` outside it.
enum ActivitySummaryQueryEvaluation {
    /// The sample types `ActivitySummaryBuilder` reads.
    static let inputTypes: [HealthObjectType] = [
        .activeEnergyBurned, .appleExerciseTime, .appleMoveTime, .appleStandHour,
    ]

    /// The span to gather samples from for `predicate`: its days, widened by a day on each side so that a
    /// builder reading the days in another calendar still sees every sample; `nil` (everything) without one.
    static func inputInterval(for predicate: ActivitySummaryPredicate?) -> DateInterval? {
        guard let predicate else { return nil }
        let start = predicate.interval.start.addingTimeInterval(-86_400)
        let end = predicate.interval.end.addingTimeInterval(86_400)
        return DateInterval(start: start, end: max(start, end))
    }

    /// The summaries of the predicate's days, ascending — in the predicate's calendar; without a predicate,
    /// of every day from the first to the last holding an input sample, in the current calendar.
    /// - Throws: ``HealthStoreError/invalidActivitySummaryRequest(_:)`` when the builder cannot derive them.
    static func summaries(
        from samples: [HealthSample], predicate: ActivitySummaryPredicate?, goals: ActivitySummaryGoals
    ) throws(HealthStoreError) -> [ActivitySummary] {
        do throws(ActivitySummaryError) {
            if let predicate {
                let builder = ActivitySummaryBuilder(calendar: predicate.start.calendar ?? .current, goals: goals)
                return try builder.summaries(from: samples, for: predicate)
            }
            let calendar = Calendar.current
            guard let span = span(of: samples) else { return [] }
            let first = calendar.dateComponents([.calendar, .year, .month, .day], from: span.first)
            let last = calendar.dateComponents([.calendar, .year, .month, .day], from: span.last)
            let builder = ActivitySummaryBuilder(calendar: calendar, goals: goals)
            return try builder.summaries(from: samples, for: try ActivitySummaryPredicate(start: first, end: last))
        } catch {
            throw .invalidActivitySummaryRequest(error)
        }
    }

    /// The first and last instants the samples occupy (a sample ending at midnight does not reach the next
    /// day); `nil` for no samples.
    private static func span(of samples: [HealthSample]) -> (first: Date, last: Date)? {
        var first = Double.infinity
        var last = -Double.infinity
        for sample in samples {
            let start = sample.startDate.timeIntervalSinceReferenceDate
            let end = sample.endDate.timeIntervalSinceReferenceDate
            first = min(first, start)
            last = max(last, end > start ? end.nextDown : start)
        }
        guard first.isFinite, last.isFinite else { return nil }
        return (Date(timeIntervalSinceReferenceDate: first), Date(timeIntervalSinceReferenceDate: last))
    }

    /// An activity summary query's outcome over its input samples.
    static func outcome(
        from samples: [HealthSample], predicate: ActivitySummaryPredicate?, goals: ActivitySummaryGoals
    ) -> Result<[ActivitySummary], any Error> {
        Result { () throws(HealthStoreError) in
            try summaries(from: samples, predicate: predicate, goals: goals)
        }.mapError { $0 }
    }
}
