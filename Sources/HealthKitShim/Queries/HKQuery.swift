import FlowKit
import Foundation
import HealthFlow

/// The base of HealthKit's queries: a type and a predicate. Each query runs once; executing it again raises,
/// as in HealthKit.
///
/// - Note: Sendable as in the iOS 18 SDK; mutable state is behind a lock.
public class HKQuery: NSObject, @unchecked Sendable {
    // @unchecked: the type and predicate are set once in init; the running HealthFlow query lives in a `LockedState`.
    let queriedType: HealthObjectType?
    private let storedPredicate: NSPredicate?
    private let running = LockedState(Execution())

    /// Whether the query was executed, and the HealthFlow query doing its work. That query's handlers hold this
    /// one (HealthKit keeps an executing query alive and passes it to its handlers), so this side is `weak`: the
    /// store holds the HealthFlow query while it runs, and once it finished or was stopped both are released.
    private struct Execution {
        var executed = false
        weak var inner: HealthQuery?
    }

    init(type: HealthObjectType?, predicate: NSPredicate?) {
        self.queriedType = type
        self.storedPredicate = predicate
    }

    /// The queried type.
    public var objectType: HKObjectType? { queriedType.map(HKShimTypes.objectType) }

    /// The queried sample type (`nil` for activity summaries).
    public var sampleType: HKSampleType? { objectType as? HKSampleType }

    /// The query's predicate.
    public var predicate: NSPredicate? { storedPredicate }

    var hasBeenExecuted: Bool { running.withLock { $0.executed } }

    /// Marks the query executed; a second time raises.
    func claimExecution(_ inner: HealthQuery) {
        let first = running.withLock { state -> Bool in
            guard !state.executed else { return false }
            state.executed = true
            state.inner = inner
            return true
        }
        if !first { HKShimException.raise(ShimQueryRules.executedTwiceReason(self)) }
    }

    var runningQuery: HealthQuery? { running.withLock { $0.inner } }

    /// The HealthFlow query that does this query's work (each subclass builds its own).
    func makeHealthFlowQuery() -> HealthQuery {
        preconditionFailure("HKQuery is abstract; use one of its subclasses")
    }

    /// The query's name and type.
    public override var description: String {
        "\(Swift.type(of: self))(\(queriedType?.healthKitIdentifier ?? "activity summaries"))"
    }

    /// The HealthFlow predicate of the query's predicate.
    var samplePredicate: SamplePredicate? { storedPredicate.map(ShimPredicate.samplePredicate) }
}

/// A predicate made by `HKQuery.predicateFor…`, carrying its HealthFlow meaning.
final class ShimPredicate: NSPredicate {
    enum Payload {
        case samples(SamplePredicate)
        case activitySummaries(ActivitySummaryPredicate)
    }

    let payload: Payload

    init(_ payload: Payload) {
        self.payload = payload
        super.init(value: true)
    }

    required init?(coder: NSCoder) {
        nil
    }

    /// The HealthFlow sample predicate of any predicate the shim understands (its own, combined with
    /// `NSCompoundPredicate`); anything else raises.
    static func samplePredicate(_ predicate: NSPredicate) -> SamplePredicate {
        if let shim = predicate as? ShimPredicate, case .samples(let samples) = shim.payload { return samples }
        if let compound = predicate as? NSCompoundPredicate {
            let subpredicates: [Any] = compound.subpredicates
            let parts = subpredicates.map { part -> SamplePredicate in
                guard let part = part as? NSPredicate else {
                    HKShimException.raise("Invalid subpredicate \(part)")
                }
                return samplePredicate(part)
            }
            switch compound.compoundPredicateType {
            case .and: return .and(parts)
            case .or: return .or(parts)
            case .not: return .not(parts.count == 1 ? parts[0] : .and(parts))
            @unknown default: HKShimException.raise("Unsupported compound predicate")
            }
        }
        HKShimException.raise("The HealthKit shim supports only HKQuery predicates, not \(predicate)")
    }
}

extension HKQuery {
    /// Samples within a date range.
    public class func predicateForSamples(withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = [])
        -> NSPredicate
    {
        ShimPredicate(
            .samples(
                .date(
                    start: startDate, end: endDate,
                    options: SamplePredicate.DateOptions(rawValue: Int(options.rawValue)))))
    }

    /// Objects saved by one source.
    public class func predicateForObjects(from source: HKSource) -> NSPredicate {
        ShimPredicate(.samples(.sources([source.bundleIdentifier])))
    }

    /// Objects saved by any of these sources.
    public class func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
        ShimPredicate(.samples(.sources(Set(sources.map(\.bundleIdentifier)))))
    }

    /// The object with this UUID.
    public class func predicateForObject(with UUID: UUID) -> NSPredicate {
        ShimPredicate(.samples(.uuids([UUID])))
    }

    /// The objects with these UUIDs.
    public class func predicateForObjects(with UUIDs: Set<UUID>) -> NSPredicate {
        ShimPredicate(.samples(.uuids(UUIDs)))
    }

    /// Objects whose metadata value for `key` is one of `allowedValues`.
    public class func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
        let values = allowedValues.map { value -> SamplePredicate in
            guard let converted = ShimMetadata.convert(value) else {
                HKShimException.raise("Invalid class \(type(of: value)) for metadata key: \(key)")
            }
            return .metadata(MetadataKey(rawValue: key), equals: converted)
        }
        return ShimPredicate(.samples(.or(values)))
    }

    /// The activity summary of one day.
    public class func predicateForActivitySummary(with dateComponents: DateComponents) -> NSPredicate {
        do {
            return ShimPredicate(.activitySummaries(try ActivitySummaryPredicate(day: dateComponents)))
        } catch {
            HKShimException.raise("Invalid date components for an activity summary predicate: \(error)")
        }
    }

    /// The activity summaries from one day to another, both included.
    public class func predicate(
        forActivitySummariesBetweenStart startDateComponents: DateComponents, end endDateComponents: DateComponents
    ) -> NSPredicate {
        do {
            return ShimPredicate(
                .activitySummaries(try ActivitySummaryPredicate(start: startDateComponents, end: endDateComponents)))
        } catch {
            HKShimException.raise("Invalid date components for an activity summary predicate: \(error)")
        }
    }
}

/// Date-range options for `predicateForSamples(withStart:end:options:)`.
public struct HKQueryOptions: OptionSet, Hashable, Sendable {
    /// The option bits: HealthFlow's `SamplePredicate.DateOptions` bits, which are HealthKit's.
    public let rawValue: UInt

    /// Options from bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Samples must start within the range.
    public static let strictStartDate = HKQueryOptions(
        rawValue: UInt(SamplePredicate.DateOptions.strictStartDate.rawValue))
    /// Samples must end within the range.
    public static let strictEndDate = HKQueryOptions(rawValue: UInt(SamplePredicate.DateOptions.strictEndDate.rawValue))
}

#if !canImport(ObjectiveC)
    extension NSSortDescriptor {
        /// A sort descriptor by HealthKit sort identifier (`HKSampleSortIdentifierStartDate`,
        /// `HKSampleSortIdentifierEndDate`), as on Apple platforms (swift-corelibs-foundation has no key-value
        /// coding; the shim maps the two keys to key paths).
        public convenience init(key: String?, ascending: Bool) {
            switch key {
            case HKSampleSortIdentifierEndDate: self.init(keyPath: \HKSample.endDate, ascending: ascending)
            case HKSampleSortIdentifierStartDate: self.init(keyPath: \HKSample.startDate, ascending: ascending)
            default: HKShimException.raise("Unsupported sort key \(key ?? "nil") (use HKSampleSortIdentifier…)")
            }
        }
    }
#endif

enum ShimSort {
    static func healthFlow(_ descriptors: [NSSortDescriptor]?) -> [SampleSortDescriptor] {
        (descriptors ?? []).map { descriptor in
            if descriptor.keyPath == \HKSample.endDate {
                return .endDate(ascending: descriptor.ascending)
            }
            if descriptor.keyPath == \HKSample.startDate {
                return .startDate(ascending: descriptor.ascending)
            }
            HKShimException.raise("Unsupported sort descriptor \(descriptor)")
        }
    }
}
