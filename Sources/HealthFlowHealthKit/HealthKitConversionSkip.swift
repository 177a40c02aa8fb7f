import Foundation
import HealthFlow

/// Something HealthKit holds that HealthFlow's model cannot: a whole object the bridge's answers leave out, or a
/// part of an object it delivers without that part. ``HealthKitStore/conversionSkips`` lists each once, so that
/// nothing another app wrote is dropped unseen.
public struct HealthKitConversionSkip: Hashable, Sendable, CustomStringConvertible {
    /// What could not be carried over, and what the bridge did instead.
    public enum Reason: Hashable, Sendable {
        /// The object breaks a rule HealthFlow checks and HealthKit does not; it is left out of the answer.
        case invalidSample(ValidationError)
        /// The object's kind is not one HealthFlow models (the HealthKit class or type named); it is left out.
        case unmodelledKind(String)
        /// A correlation member of a type HealthFlow does not model (its identifier); the correlation is delivered
        /// without it.
        case unmodelledMember(String)
        /// A metadata value HealthFlow cannot hold (its key); the object is delivered without that entry.
        case unreadableMetadata(key: String)
        /// The unit saved beside a quantity (the bridge's `HealthFlowUnit` entry) is not a unit of its type; the
        /// quantity is read in the type's canonical unit instead.
        case unusableSavedUnit(String)
    }

    /// HealthKit's UUID of the object.
    public let healthKitUUID: UUID
    /// What was skipped.
    public let reason: Reason

    /// One line naming the object and the reason.
    public var description: String {
        let object = "HealthKit object \(healthKitUUID.uuidString)"
        return switch reason {
        case .invalidSample(let error): "\(object) left out: \(error.description)"
        case .unmodelledKind(let kind): "\(object) left out: HealthFlow does not model \(kind)"
        case .unmodelledMember(let type): "\(object) delivered without its \(type) member, a type HealthFlow lacks"
        case .unreadableMetadata(let key): "\(object) delivered without metadata \(key), a value HealthFlow lacks"
        case .unusableSavedUnit(let unit): "\(object) read in its canonical unit: the saved unit \(unit) does not fit"
        }
    }
}
