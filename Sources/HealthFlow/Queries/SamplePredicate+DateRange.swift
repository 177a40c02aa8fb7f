import Foundation

extension SamplePredicate {
    /// The date range the predicate confines samples to, as statistics queries read it: the `.date` clauses
    /// of the predicate and of every `.and` nested in it, intersected (the latest start, the earliest end).
    /// A `nil` bound is open. Clauses inside `.or` or `.not` filter samples but bound nothing.
    var dateRange: (start: Date?, end: Date?) {
        switch self {
        case .date(let start, let end, _):
            return (start, end)
        case .and(let predicates):
            var range: (start: Date?, end: Date?) = (nil, nil)
            for predicate in predicates {
                let inner = predicate.dateRange
                if let start = inner.start { range.start = range.start.map { max($0, start) } ?? start }
                if let end = inner.end { range.end = range.end.map { min($0, end) } ?? end }
            }
            return range
        case .sources, .metadata, .uuids, .or, .not:
            return (nil, nil)
        }
    }
}

extension SamplePredicate {
    /// Whether the predicate tests dates alone: a `.date` clause, or an `.and` of such predicates (an empty
    /// `.and` included). Such a predicate decides a sample from its start and end (``matchesDates(start:end:)``).
    var testsDatesOnly: Bool {
        switch self {
        case .date: true
        case .and(let predicates): predicates.allSatisfy(\.testsDatesOnly)
        case .sources, .metadata, .uuids, .or, .not: false
        }
    }

    /// What ``evaluate(_:)`` answers for a sample with these dates (seconds since the reference date), for a
    /// predicate that ``testsDatesOnly``; `false` for any clause that needs more than the dates.
    func matchesDates(start: Double, end: Double) -> Bool {
        switch self {
        case .date(let rangeStart, let rangeEnd, let options):
            Self.dates(start: start, end: end, match: rangeStart, rangeEnd, options)
        case .and(let predicates): predicates.allSatisfy { $0.matchesDates(start: start, end: end) }
        case .sources, .metadata, .uuids, .or, .not: false
        }
    }
}
