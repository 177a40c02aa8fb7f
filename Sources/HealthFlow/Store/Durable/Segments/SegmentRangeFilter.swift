/// The one rule for which rows a date-range query returns.
enum SegmentRangeFilter {
    /// Whether a row starting at `start` and ending at `end` starts in `lowerStart..<upperStart` and ends at or
    /// after `lowerEnd` (absent bounds do not narrow).
    static func matches(
        start: Double, end: Double, startingFrom lowerStart: Double?, below upperStart: Double?,
        endingAtOrAfter lowerEnd: Double?
    ) -> Bool {
        start >= (lowerStart ?? -.infinity) && start < (upperStart ?? .infinity) && end >= (lowerEnd ?? -.infinity)
    }

    static func matches(
        _ entry: IndexedSample, startingFrom lowerStart: Double?, below upperStart: Double?,
        endingAtOrAfter lowerEnd: Double?
    ) -> Bool {
        matches(
            start: entry.start, end: entry.end, startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
    }
}
