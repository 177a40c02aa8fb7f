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
        try characteristic(device.backend.dateOfBirthComponents)
    }

    /// The person's biological sex.
    public func biologicalSex() throws -> HKBiologicalSexObject {
        HKBiologicalSexObject(biologicalSex: try characteristic(device.backend.biologicalSex))
    }

    /// The person's blood type.
    public func bloodType() throws -> HKBloodTypeObject {
        HKBloodTypeObject(bloodType: try characteristic(device.backend.bloodType))
    }

    /// The person's Fitzpatrick skin type.
    public func fitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject {
        // HealthKit names the skin types `I` … `VI`, HealthFlow `typeI` … `typeVI`; the raw values are the same.
        let skinType = HKFitzpatrickSkinType(rawValue: try characteristic(device.backend.fitzpatrickSkinType).rawValue)
        return HKFitzpatrickSkinTypeObject(skinType: skinType ?? .notSet)
    }

    /// Whether the person uses a wheelchair.
    public func wheelchairUse() throws -> HKWheelchairUseObject {
        HKWheelchairUseObject(wheelchairUse: try characteristic(device.backend.wheelchairUse))
    }

    /// How the person's move ring is measured.
    public func activityMoveMode() throws -> HKActivityMoveModeObject {
        HKActivityMoveModeObject(activityMoveMode: try characteristic(device.backend.activityMoveMode))
    }
}
