import Foundation

/// Which samples a query matches — the counterpart of the `NSPredicate`s HealthKit's `HKQuery.predicateFor…`
/// methods build: a date range, sources, a metadata value, UUIDs, and their combinations.
///
/// ```swift
/// let lastWeek = SamplePredicate.samples(withStart: weekAgo, end: now)
/// let mine = SamplePredicate.sources(["com.example.steps"])
/// let predicate = lastWeek && mine && .metadata(.wasUserEntered, equals: true)
/// let typedIn = try await store.samples(of: .stepCount, matching: predicate)
/// ```
///
/// Stores use the date range (anywhere in a chain of `&&`) and a UUID set to narrow the search through their
/// indexes; every other clause is checked sample by sample.
public indirect enum SamplePredicate: Hashable, Sendable {
    /// Samples overlapping the interval from `start` to `end` (either may be `nil`: unbounded), refined by
    /// `options`; see ``samples(withStart:end:options:)``.
    case date(start: Date?, end: Date?, options: DateOptions)
    /// Samples whose source's bundle identifier is in the set (`HKQuery.predicateForObjects(from:)`).
    case sources(Set<String>)
    /// Samples whose metadata holds `value` under `key` (`HKQuery.predicateForObjects(withMetadataKey:operatorType:value:)`
    /// with `==`). Numbers compare numerically: `true`, `1` and `1.0` are equal.
    case metadata(MetadataKey, equals: MetadataValue)
    /// Samples with one of these UUIDs (`HKQuery.predicateForObjects(with:)`).
    case uuids(Set<UUID>)
    /// Samples matching every predicate (an empty list matches everything).
    case and([SamplePredicate])
    /// Samples matching at least one predicate (an empty list matches nothing).
    case or([SamplePredicate])
    /// Samples not matching the predicate.
    case not(SamplePredicate)

    /// How a sample's dates are compared with a date range (HealthKit's `HKQueryOptions`).
    public struct DateOptions: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: Int

        /// Makes options from raw bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The sample must start at or after the range's start (instead of merely ending at or after it).
        public static let strictStartDate = DateOptions(rawValue: 1 << 0)
        /// The sample must end at or before the range's end (in addition to starting before it).
        public static let strictEndDate = DateOptions(rawValue: 1 << 1)
    }

    /// Samples whose interval meets the range — HealthKit's `predicateForSamples(withStart:end:options:)`.
    ///
    /// With no options a sample matches when `sample.endDate >= start && sample.startDate < end` (HealthKit's
    /// documented format: it overlaps the half-open range, and an instantaneous sample at `start` counts).
    /// `.strictStartDate` replaces the first condition with `sample.startDate >= start`; `.strictEndDate` adds
    /// `sample.endDate <= end` (HealthKit does not document the exact comparison; we include samples ending
    /// exactly at `end`, so an hour's sample matches a query for that hour). A `nil` bound is unbounded.
    ///
    /// - Parameters:
    ///   - start: The range's start, or `nil`.
    ///   - end: The range's end (exclusive for start dates), or `nil`.
    ///   - options: Strictness.
    /// - Returns: The predicate.
    public static func samples(withStart start: Date?, end: Date?, options: DateOptions = []) -> SamplePredicate {
        .date(start: start, end: end, options: options)
    }

    /// Whether `sample` matches.
    ///
    /// - Parameter sample: The sample to test.
    /// - Returns: `true` when it matches.
    /// - Complexity: Proportional to the number of clauses.
    public func evaluate(_ sample: HealthSample) -> Bool {
        evaluate(
            sample, start: sample.startDate.timeIntervalSinceReferenceDate,
            end: sample.endDate.timeIntervalSinceReferenceDate)
    }

    /// `evaluate(_:)` with the sample's dates already converted (stores keep them beside each sample).
    func evaluate(_ sample: HealthSample, start: Double, end: Double) -> Bool {
        switch self {
        case .date(let rangeStart, let rangeEnd, let options):
            return Self.dates(start: start, end: end, match: rangeStart, rangeEnd, options)
        case .sources(let bundleIdentifiers):
            return bundleIdentifiers.contains(sample.source.bundleIdentifier)
        case .metadata(let key, let value):
            return sample.metadata[key] == value
        case .uuids(let uuids):
            return uuids.contains(sample.uuid)
        case .and(let predicates):
            return predicates.allSatisfy { $0.evaluate(sample, start: start, end: end) }
        case .or(let predicates):
            return predicates.contains { $0.evaluate(sample, start: start, end: end) }
        case .not(let predicate):
            return !predicate.evaluate(sample, start: start, end: end)
        }
    }

    /// Both predicates.
    ///
    /// - Parameters:
    ///   - lhs: One predicate.
    ///   - rhs: The other.
    /// - Returns: `.and([lhs, rhs])`, flattened.
    public static func && (lhs: SamplePredicate, rhs: SamplePredicate) -> SamplePredicate {
        .and(lhs.conjuncts + rhs.conjuncts)
    }

    /// Either predicate.
    ///
    /// - Parameters:
    ///   - lhs: One predicate.
    ///   - rhs: The other.
    /// - Returns: `.or([lhs, rhs])`, flattened.
    public static func || (lhs: SamplePredicate, rhs: SamplePredicate) -> SamplePredicate {
        .or(lhs.disjuncts + rhs.disjuncts)
    }

    /// The opposite predicate.
    ///
    /// - Parameter predicate: The predicate to negate.
    /// - Returns: `.not(predicate)`.
    public static prefix func ! (predicate: SamplePredicate) -> SamplePredicate {
        .not(predicate)
    }

    private var conjuncts: [SamplePredicate] {
        if case .and(let predicates) = self { return predicates }
        return [self]
    }

    private var disjuncts: [SamplePredicate] {
        if case .or(let predicates) = self { return predicates }
        return [self]
    }

    /// The date-range rule on raw time intervals (seconds since the reference date).
    static func dates(start: Double, end: Double, match rangeStart: Date?, _ rangeEnd: Date?, _ options: DateOptions)
        -> Bool
    {
        if let rangeStart {
            let bound = rangeStart.timeIntervalSinceReferenceDate
            if options.contains(.strictStartDate) {
                guard start >= bound else { return false }
            } else {
                guard end >= bound else { return false }
            }
        }
        if let rangeEnd {
            let bound = rangeEnd.timeIntervalSinceReferenceDate
            guard start < bound else { return false }
            if options.contains(.strictEndDate) {
                guard end <= bound else { return false }
            }
        }
        return true
    }
}
