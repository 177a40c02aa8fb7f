/// A kind of health data — the counterpart of `HKObjectType` and its subclasses — with the rules our
/// stores enforce for it.
///
/// Every type comes from the built-in catalog (`HealthObjectType.height`, `.stepCount`, `.sleepAnalysis`,
/// `.bloodPressure`, …); look one up by its short identifier or by HealthKit's full identifier.
///
/// Two types are equal when their identifiers are. A type encodes as its short identifier.
public struct HealthObjectType: Hashable, Sendable {
    /// What a type describes; decides which sample (if any) holds its data.
    public enum Kind: String, CaseIterable, Hashable, Sendable, Codable {
        /// Numeric samples with a unit (`HKQuantityType`).
        case quantity
        /// Samples holding one value of a closed set (`HKCategoryType`).
        case category
        /// Samples grouping other samples (`HKCorrelationType`).
        case correlation
        /// Read-only facts about the person, not samples (`HKCharacteristicType`).
        case characteristic
        /// Daily ring summaries, not samples (`HKActivitySummaryType`).
        case activitySummary
        /// ECG recordings (`HKElectrocardiogramType`).
        case electrocardiogram
        /// Workouts (`HKWorkoutType`).
        case workout
        /// Heartbeat series (`HKSeriesType.heartbeat()`).
        case heartbeatSeries
    }

    /// How the values of a quantity type combine over time (HealthKit's `HKQuantityAggregationStyle`).
    public enum AggregationStyle: String, CaseIterable, Hashable, Sendable, Codable {
        /// Values add up (steps, energy, distance): sums are meaningful, averages are not.
        case cumulative
        /// Independent readings averaged arithmetically (height, body mass, blood pressure).
        case discreteArithmetic
        /// Readings averaged weighted by the time each one covers (heart rate).
        case discreteTemporallyWeighted
        /// Sound levels averaged as an equivalent continuous level (audio exposure).
        case discreteEquivalentContinuousLevel

        /// Whether the style is `.cumulative`.
        public var isCumulative: Bool { self == .cumulative }
    }

    /// The type's description, made once per catalog type, never released, and shared by every copy without
    /// reference counting: a copy of a type (and of every sample holding one) retains nothing, so the threads
    /// that pass samples to each other do not contend for one counter per type.
    ///
    /// Sound because every type is a catalog constant (the initializer is internal and only the catalog calls
    /// it), and the initializer keeps its storage alive for the life of the process.
    private unowned(unsafe) let storage: Storage

    /// The short identifier, as used throughout this library: `"stepCount"`, `"sleepAnalysis"`.
    public var identifier: String { storage.identifier }

    /// Whether `other` is this very value (the same shared description), not just an equal one: O(1), and
    /// never reads the strings.
    func isIdentical(to other: HealthObjectType) -> Bool { storage === other.storage }
    /// HealthKit's identifier, as found in `export.xml`: `"HKQuantityTypeIdentifierStepCount"`.
    public var healthKitIdentifier: String { storage.healthKitIdentifier }
    /// What the type describes.
    public var kind: Kind { storage.kind }
    /// For quantity types, the unit values are stored in (`count/s` for heart rate); `nil` otherwise.
    public var canonicalUnit: HealthUnit? { storage.canonicalUnit }
    /// For quantity types, the unit values are shown in: the canonical unit, except where people expect
    /// another (`count/min` for heart rate and respiratory rate); `nil` otherwise.
    public var displayUnit: HealthUnit? { storage.displayUnit }
    /// For quantity types, how values combine over time; `nil` otherwise.
    public var aggregationStyle: AggregationStyle? { storage.aggregationStyle }
    /// Whether an app may ask to write (share) the type. `false` for read-only types (`appleExerciseTime`,
    /// `appleStandHour`, `nikeFuel`, `walkingHeartRateAverage`, characteristics, activity summaries, ECGs)
    /// and for correlation types, which are never authorized themselves: an app authorizes their member
    /// types and may then save the correlation.
    public var isShareable: Bool { storage.isShareable }
    /// Metadata keys every sample of the type must carry (`insulinDeliveryReason` on `insulinDelivery`,
    /// `menstrualCycleStart` on `menstrualFlow`, `foodType` on `food`).
    public var requiredMetadataKeys: Set<MetadataKey> { storage.requiredMetadataKeys }
    /// For category types, the values a sample may hold, ascending (`0...5` for sleep analysis); empty
    /// otherwise.
    public var allowedCategoryValues: [Int] { storage.allowedCategoryValues }
    /// Whether the type is a dietary nutrient that may be a member of a `food` correlation.
    public var isNutrition: Bool { storage.isNutrition }

    init(
        identifier: String, healthKitIdentifier: String, kind: Kind, canonicalUnit: HealthUnit? = nil,
        displayUnit: HealthUnit? = nil, aggregationStyle: AggregationStyle? = nil, isShareable: Bool,
        requiredMetadataKeys: Set<MetadataKey> = [], allowedCategoryValues: [Int] = [], isNutrition: Bool = false
    ) {
        let dimension = canonicalUnit?.dimension
        let storage = Storage(
            identifier: identifier, healthKitIdentifier: healthKitIdentifier, kind: kind,
            canonicalUnit: canonicalUnit, displayUnit: displayUnit ?? canonicalUnit,
            aggregationStyle: aggregationStyle, isShareable: isShareable,
            requiredMetadataKeys: requiredMetadataKeys, allowedCategoryValues: allowedCategoryValues,
            isNutrition: isNutrition,
            allowsNegativeValues: dimension == .temperature || dimension == .soundPressureLevel
                || dimension == .hearingLevel)
        // The one reference that keeps a catalog type's storage alive, never given back.
        _ = Unmanaged.passRetained(storage)
        self.storage = storage
    }

    /// Looks a type up by its short identifier (`"height"`) or HealthKit's (`"HKQuantityTypeIdentifierHeight"`).
    ///
    /// - Parameter identifier: Either identifier.
    /// - Returns: `nil` when no catalog type has that identifier.
    public init?(identifier: String) {
        guard let type = Self.byIdentifier[identifier] else { return nil }
        self = type
    }

    private static let byIdentifier: [String: HealthObjectType] = {
        var index: [String: HealthObjectType] = [:]
        for type in allTypes {
            index[type.identifier] = type
            index[type.healthKitIdentifier] = type
        }
        return index
    }()

    /// Whether samples of the type exist: quantity, category, correlation, electrocardiogram, workout and
    /// heartbeat series types are sample types; characteristics and activity summaries are not.
    public var isSampleType: Bool {
        switch kind {
        case .quantity, .category, .correlation, .electrocardiogram, .workout, .heartbeatSeries: true
        case .characteristic, .activitySummary: false
        }
    }

    /// Whether a quantity of this type may be negative: only temperatures and sound levels may; a negative
    /// step count, mass or heart rate is rejected. `false` for non-quantity types.
    public var allowsNegativeValues: Bool { storage.allowsNegativeValues }

    /// For correlation types, the types a member sample may have: systolic and diastolic blood pressure
    /// for `bloodPressure`, every nutrition type for `food`; empty otherwise.
    public var correlationMemberTypes: [HealthObjectType] {
        switch self {
        case .bloodPressure: [.bloodPressureSystolic, .bloodPressureDiastolic]
        case .food: Self.allTypes.filter(\.isNutrition)
        default: []
        }
    }

    /// Equal when the identifiers are equal, which is when the types share their storage: the catalog makes one
    /// storage per identifier (its identifiers are unique, `HealthObjectTypeTests.catalogIsCompleteAndUnique`),
    /// so types compare in O(1) without reading their strings.
    public static func == (lhs: HealthObjectType, rhs: HealthObjectType) -> Bool {
        lhs.storage === rhs.storage
    }

    /// Hashes the identifier.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }
}

extension HealthObjectType {
    /// The immutable description of one type.
    private final class Storage: Sendable {
        let identifier: String
        let healthKitIdentifier: String
        let kind: Kind
        let canonicalUnit: HealthUnit?
        let displayUnit: HealthUnit?
        let aggregationStyle: AggregationStyle?
        let isShareable: Bool
        let requiredMetadataKeys: Set<MetadataKey>
        let allowedCategoryValues: [Int]
        let isNutrition: Bool
        let allowsNegativeValues: Bool

        init(
            identifier: String, healthKitIdentifier: String, kind: Kind, canonicalUnit: HealthUnit?,
            displayUnit: HealthUnit?, aggregationStyle: AggregationStyle?, isShareable: Bool,
            requiredMetadataKeys: Set<MetadataKey>, allowedCategoryValues: [Int], isNutrition: Bool,
            allowsNegativeValues: Bool
        ) {
            self.identifier = identifier
            self.healthKitIdentifier = healthKitIdentifier
            self.kind = kind
            self.canonicalUnit = canonicalUnit
            self.displayUnit = displayUnit
            self.aggregationStyle = aggregationStyle
            self.isShareable = isShareable
            self.requiredMetadataKeys = requiredMetadataKeys
            self.allowedCategoryValues = allowedCategoryValues
            self.isNutrition = isNutrition
            self.allowsNegativeValues = allowsNegativeValues
        }
    }
}

extension HealthObjectType: CustomStringConvertible {
    /// The short identifier.
    public var description: String { identifier }
}

extension HealthObjectType: Codable {
    /// Decodes a type from either identifier.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for an identifier not in the catalog.
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeSingleString { identifier in
            guard let type = HealthObjectType(identifier: identifier) else {
                throw UnparsableString(description: "unknown health object type \"\(identifier)\"")
            }
            return type
        }
    }

    /// Encodes the short identifier.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try encoder.encodeSingleString(identifier)
    }
}
