import Foundation
import HealthFlow

extension HKHealthStore {
    private func characteristic<Value>(_ read: () throws(HealthStoreError) -> Value) throws -> Value {
        device.record("characteristic")
        do {
            return try read()
        } catch {
            throw HKError(error)
        }
    }

    /// The person's date of birth (Gregorian).
    public func dateOfBirthComponents() throws -> DateComponents {
        try characteristic { () throws(HealthStoreError) in try device.backend.dateOfBirthComponents() }
    }

    /// The person's biological sex.
    public func biologicalSex() throws -> HKBiologicalSexObject {
        let value = try characteristic { () throws(HealthStoreError) in try device.backend.biologicalSex() }
        return HKBiologicalSexObject(biologicalSex: HKBiologicalSex(rawValue: value.rawValue) ?? .notSet)
    }

    /// The person's blood type.
    public func bloodType() throws -> HKBloodTypeObject {
        let value = try characteristic { () throws(HealthStoreError) in try device.backend.bloodType() }
        return HKBloodTypeObject(bloodType: HKBloodType(rawValue: value.rawValue) ?? .notSet)
    }

    /// The person's Fitzpatrick skin type.
    public func fitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject {
        let value = try characteristic { () throws(HealthStoreError) in try device.backend.fitzpatrickSkinType() }
        return HKFitzpatrickSkinTypeObject(skinType: HKFitzpatrickSkinType(rawValue: value.rawValue) ?? .notSet)
    }

    /// Whether the person uses a wheelchair.
    public func wheelchairUse() throws -> HKWheelchairUseObject {
        let value = try characteristic { () throws(HealthStoreError) in try device.backend.wheelchairUse() }
        return HKWheelchairUseObject(wheelchairUse: HKWheelchairUse(rawValue: value.rawValue) ?? .notSet)
    }

    /// How the person's move ring is measured.
    public func activityMoveMode() throws -> HKActivityMoveModeObject {
        let value = try characteristic { () throws(HealthStoreError) in try device.backend.activityMoveMode() }
        return HKActivityMoveModeObject(activityMoveMode: HKActivityMoveMode(rawValue: value.rawValue) ?? .activeEnergy)
    }
}
