import Foundation

/// Biological sex, as the person entered it in Health (`HKBiologicalSex`).
public enum BiologicalSex: Int, CaseIterable, Hashable, Sendable, Codable {
    /// Not set, or not readable by the app (the two look the same).
    case notSet = 0
    /// Female.
    case female = 1
    /// Male.
    case male = 2
    /// Other.
    case other = 3
}

/// Blood type (`HKBloodType`).
public enum BloodType: Int, CaseIterable, Hashable, Sendable, Codable {
    /// Not set, or not readable by the app.
    case notSet = 0
    /// A+.
    case aPositive = 1
    /// A−.
    case aNegative = 2
    /// B+.
    case bPositive = 3
    /// B−.
    case bNegative = 4
    /// AB+.
    case abPositive = 5
    /// AB−.
    case abNegative = 6
    /// O+.
    case oPositive = 7
    /// O−.
    case oNegative = 8
}

/// Fitzpatrick skin type, used for UV exposure (`HKFitzpatrickSkinType`).
public enum FitzpatrickSkinType: Int, CaseIterable, Hashable, Sendable, Codable {
    /// Not set, or not readable by the app.
    case notSet = 0
    /// Type I: always burns, never tans.
    case typeI = 1
    /// Type II: usually burns, tans minimally.
    case typeII = 2
    /// Type III: sometimes burns, tans uniformly.
    case typeIII = 3
    /// Type IV: burns minimally, always tans well.
    case typeIV = 4
    /// Type V: very rarely burns, tans very easily.
    case typeV = 5
    /// Type VI: never burns.
    case typeVI = 6
}

/// Whether the person uses a wheelchair (`HKWheelchairUse`).
public enum WheelchairUse: Int, CaseIterable, Hashable, Sendable, Codable {
    /// Not set, or not readable by the app.
    case notSet = 0
    /// Does not use a wheelchair.
    case no = 1
    /// Uses a wheelchair.
    case yes = 2
}

/// What the move ring counts (`HKActivityMoveMode`).
public enum ActivityMoveMode: Int, CaseIterable, Hashable, Sendable, Codable {
    /// Active energy burned, in kilocalories (the default).
    case activeEnergy = 1
    /// Minutes of movement (`appleMoveTime`), for people who cannot measure energy well.
    case appleMoveTime = 2
}

/// The person's read-only characteristics, as entered in Health; an in-memory store is given them.
public struct HealthCharacteristics: Hashable, Sendable, Codable {
    /// Date of birth as calendar components (year, month, day); `nil` when not set.
    public var dateOfBirth: DateComponents?
    /// Biological sex.
    public var biologicalSex: BiologicalSex
    /// Blood type.
    public var bloodType: BloodType
    /// Fitzpatrick skin type.
    public var fitzpatrickSkinType: FitzpatrickSkinType
    /// Wheelchair use.
    public var wheelchairUse: WheelchairUse
    /// What the move ring counts.
    public var activityMoveMode: ActivityMoveMode

    /// Makes characteristics; every one defaults to "not set" (move mode to active energy).
    public init(
        dateOfBirth: DateComponents? = nil, biologicalSex: BiologicalSex = .notSet, bloodType: BloodType = .notSet,
        fitzpatrickSkinType: FitzpatrickSkinType = .notSet, wheelchairUse: WheelchairUse = .notSet,
        activityMoveMode: ActivityMoveMode = .activeEnergy
    ) {
        self.dateOfBirth = dateOfBirth
        self.biologicalSex = biologicalSex
        self.bloodType = bloodType
        self.fitzpatrickSkinType = fitzpatrickSkinType
        self.wheelchairUse = wheelchairUse
        self.activityMoveMode = activityMoveMode
    }
}
