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

    /// A characteristic whose HealthFlow enum and HealthKit enum share raw values; a raw value HealthKit's enum
    /// lacks reads as `unknown`.
    private func characteristic<Value: RawRepresentable<Int>, Answer: RawRepresentable<Int>>(
        _ read: () throws(HealthStoreError) -> Value, unknown: Answer
    ) throws -> Answer {
        Answer(rawValue: try characteristic(read).rawValue) ?? unknown
    }

    /// The person's date of birth (Gregorian).
    public func dateOfBirthComponents() throws -> DateComponents {
        try characteristic(device.backend.dateOfBirthComponents)
    }

    /// The person's biological sex.
    public func biologicalSex() throws -> HKBiologicalSexObject {
        HKBiologicalSexObject(biologicalSex: try characteristic(device.backend.biologicalSex, unknown: .notSet))
    }

    /// The person's blood type.
    public func bloodType() throws -> HKBloodTypeObject {
        HKBloodTypeObject(bloodType: try characteristic(device.backend.bloodType, unknown: .notSet))
    }

    /// The person's Fitzpatrick skin type.
    public func fitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject {
        HKFitzpatrickSkinTypeObject(skinType: try characteristic(device.backend.fitzpatrickSkinType, unknown: .notSet))
    }

    /// Whether the person uses a wheelchair.
    public func wheelchairUse() throws -> HKWheelchairUseObject {
        HKWheelchairUseObject(wheelchairUse: try characteristic(device.backend.wheelchairUse, unknown: .notSet))
    }

    /// How the person's move ring is measured.
    public func activityMoveMode() throws -> HKActivityMoveModeObject {
        HKActivityMoveModeObject(
            activityMoveMode: try characteristic(device.backend.activityMoveMode, unknown: .activeEnergy))
    }
}
