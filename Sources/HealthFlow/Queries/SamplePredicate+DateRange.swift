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
