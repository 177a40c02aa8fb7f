/// The key of a metadata entry on a sample, mirroring HealthKit's `HKMetadataKey…` constants.
///
/// Known keys carry HealthKit's raw strings (so they match `export.xml`'s `MetadataEntry key`), and
/// samples check their values: the insulin delivery reason must be 1 (basal) or 2 (bolus), the food
/// type a string, and so on. Any other string is a custom key and accepts any value.
public struct MetadataKey: RawRepresentable, Hashable, Sendable, Codable, CodingKeyRepresentable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The key as stored, e.g. `"HKInsulinDeliveryReason"`.
    public let rawValue: String

    /// Makes a key from its raw string.
    ///
    /// - Parameter rawValue: The key as stored.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Makes a key from a string literal: `let key: MetadataKey = "com.example.note"`.
    ///
    /// - Parameter value: The key as stored.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The raw key.
    public var description: String { rawValue }

    /// Why insulin was delivered: a number, 1 (basal) or 2 (bolus). Required on `insulinDelivery`.
    public static let insulinDeliveryReason = MetadataKey(rawValue: "HKInsulinDeliveryReason")
    /// Whether a menstrual-flow sample starts a cycle: a Boolean number (0 or 1). Required on `menstrualFlow`.
    public static let menstrualCycleStart = MetadataKey(rawValue: "HKMenstrualCycleStart")
    /// The name of a food: a string. Required on a `food` correlation.
    public static let foodType = MetadataKey(rawValue: "HKFoodType")
    /// Whether the person entered the sample by hand: a Boolean number (0 or 1).
    public static let wasUserEntered = MetadataKey(rawValue: "HKWasUserEntered")
    /// A source-defined identifier that deduplicates saves of the same record: a string; needs `syncVersion`.
    public static let syncIdentifier = MetadataKey(rawValue: "HKMetadataKeySyncIdentifier")
    /// The version of a record with a `syncIdentifier`: an integral number.
    public static let syncVersion = MetadataKey(rawValue: "HKMetadataKeySyncVersion")
    /// An identifier of the record in another system: a string.
    public static let externalUUID = MetadataKey(rawValue: "HKExternalUUID")
    /// The time zone the sample was recorded in: a string (an IANA identifier).
    public static let timeZone = MetadataKey(rawValue: "HKTimeZone")
    /// The name of the device that took the measurement: a string.
    public static let deviceName = MetadataKey(rawValue: "HKDeviceName")
    /// When a blood glucose reading was taken relative to a meal: a number, 1 (preprandial) or 2 (postprandial).
    public static let bloodGlucoseMealTime = MetadataKey(rawValue: "HKBloodGlucoseMealTime")
    /// The activity around a heart-rate reading: a number, 0 (not set), 1 (sedentary) or 2 (active).
    public static let heartRateMotionContext = MetadataKey(rawValue: "HKMetadataKeyHeartRateMotionContext")
    /// How a VO₂ max value was obtained: a number, 1 (max exercise), 2 (submaximal prediction) or
    /// 3 (non-exercise prediction).
    public static let vo2MaxTestType = MetadataKey(rawValue: "HKVO2MaxTestType")

    /// The value a known key accepts; `nil` for custom keys, which accept anything.
    var expectation: MetadataExpectation? {
        // Every key with an expectation is one of HealthKit's (`HK…`), and their lengths differ but for two
        // pairs: any other key is found custom without being compared with each of them.
        let utf8 = rawValue.utf8
        guard utf8.count >= 10, utf8.first == UInt8(ascii: "H"),
            utf8[utf8.index(after: utf8.startIndex)] == UInt8(ascii: "K")
        else { return nil }
        return switch utf8.count {
        case 23 where self == .insulinDeliveryReason: .number(allowed: 1...2, meaning: "1 (basal) or 2 (bolus)")
        case 21 where self == .menstrualCycleStart, 16 where self == .wasUserEntered:
            .number(allowed: 0...1, meaning: "a Boolean number (0 or 1)")
        case 22 where self == .bloodGlucoseMealTime:
            .number(allowed: 1...2, meaning: "1 (preprandial) or 2 (postprandial)")
        case 35 where self == .heartRateMotionContext:
            .number(allowed: 0...2, meaning: "0 (not set), 1 (sedentary) or 2 (active)")
        case 16 where self == .vo2MaxTestType: .number(allowed: 1...3, meaning: "1, 2 or 3")
        case 24 where self == .syncVersion: .integer
        case 10 where self == .foodType || self == .timeZone, 27 where self == .syncIdentifier,
            14 where self == .externalUUID, 12 where self == .deviceName:
            .string
        default: nil
        }
    }

    /// Whether the key is a known one whose value is a number (a string under it breaks its rule).
    package var expectsNumber: Bool {
        switch expectation {
        case .integer, .number: true
        case .string, nil: false
        }
    }
}

/// What a known metadata key accepts. Made for every entry a sample is validated with, so it holds nothing that
/// allocates: the allowed numbers are a range of integers, the meaning a literal.
enum MetadataExpectation: Sendable {
    case string
    case integer
    /// One of the integers in `allowed`.
    case number(allowed: ClosedRange<Int>, meaning: StaticString)

    func accepts(_ value: MetadataValue) -> Bool {
        switch (self, value) {
        case (.string, .string): true
        case (.integer, .number(let number)): number.isFinite && number == number.rounded()
        case (.number(let allowed, _), .number(let number)):
            number == number.rounded() && number >= Double(allowed.lowerBound) && number <= Double(allowed.upperBound)
        default: false
        }
    }

    var summary: String {
        switch self {
        case .string: "a string"
        case .integer: "an integral number"
        case .number(_, let meaning): "\(meaning)"
        }
    }
}

/// Why insulin was delivered, the value of `MetadataKey.insulinDeliveryReason` (HealthKit's
/// `HKInsulinDeliveryReason`).
public enum InsulinDeliveryReason: Int, CaseIterable, Hashable, Sendable, Codable {
    /// Background insulin delivered continuously.
    case basal = 1
    /// Insulin delivered for a meal or a correction.
    case bolus = 2

    /// The metadata value to store under `MetadataKey.insulinDeliveryReason`: `.number(1)` or `.number(2)`.
    public var metadataValue: MetadataValue { .number(Double(rawValue)) }
}
