import Foundation
import HealthFlow

/// The person's biological sex: HealthFlow's own enum, whose cases and raw values are HealthKit's.
public typealias HKBiologicalSex = BiologicalSex

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

/// The person's blood type: HealthFlow's own enum, whose cases and raw values are HealthKit's.
public typealias HKBloodType = BloodType

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

/// The person's wheelchair use: HealthFlow's own enum, whose cases and raw values are HealthKit's.
public typealias HKWheelchairUse = WheelchairUse

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
