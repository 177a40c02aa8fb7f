import Foundation

/// The person's biological sex.
public enum HKBiologicalSex: Int, Sendable {
    /// `notSet`.
    case notSet = 0
    /// `female`.
    case female = 1
    /// `male`.
    case male = 2
    /// `other`.
    case other = 3
}

/// The answer of `HKHealthStore`'s biological sex method.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKBiologicalSexObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable enum).

    /// The value.
    public let biologicalSex: HKBiologicalSex

    init(biologicalSex: HKBiologicalSex) {
        self.biologicalSex = biologicalSex
    }
}

/// The person's blood type.
public enum HKBloodType: Int, Sendable {
    /// `notSet`.
    case notSet = 0
    /// `aPositive`.
    case aPositive = 1
    /// `aNegative`.
    case aNegative = 2
    /// `bPositive`.
    case bPositive = 3
    /// `bNegative`.
    case bNegative = 4
    /// `abPositive`.
    case abPositive = 5
    /// `abNegative`.
    case abNegative = 6
    /// `oPositive`.
    case oPositive = 7
    /// `oNegative`.
    case oNegative = 8
}

/// The answer of `HKHealthStore`'s blood type method.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKBloodTypeObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable enum).

    /// The value.
    public let bloodType: HKBloodType

    init(bloodType: HKBloodType) {
        self.bloodType = bloodType
    }
}

/// The person's Fitzpatrick skin type.
public enum HKFitzpatrickSkinType: Int, Sendable {
    /// `notSet`.
    case notSet = 0
    /// `I`.
    case I = 1
    /// `II`.
    case II = 2
    /// `III`.
    case III = 3
    /// `IV`.
    case IV = 4
    /// `V`.
    case V = 5
    /// `VI`.
    case VI = 6
}

/// The answer of `HKHealthStore`'s Fitzpatrick skin type method.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKFitzpatrickSkinTypeObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable enum).

    /// The value.
    public let skinType: HKFitzpatrickSkinType

    init(skinType: HKFitzpatrickSkinType) {
        self.skinType = skinType
    }
}

/// The person's wheelchair use.
public enum HKWheelchairUse: Int, Sendable {
    /// `notSet`.
    case notSet = 0
    /// `no`.
    case no = 1
    /// `yes`.
    case yes = 2
}

/// The answer of `HKHealthStore`'s wheelchair use method.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKWheelchairUseObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable enum).

    /// The value.
    public let wheelchairUse: HKWheelchairUse

    init(wheelchairUse: HKWheelchairUse) {
        self.wheelchairUse = wheelchairUse
    }
}

/// The answer of `HKHealthStore.activityMoveMode()`.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKActivityMoveModeObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable enum).

    /// The value.
    public let activityMoveMode: HKActivityMoveMode

    init(activityMoveMode: HKActivityMoveMode) {
        self.activityMoveMode = activityMoveMode
    }
}
