import Foundation
import HealthFlow

/// An object in the health database: a UUID, metadata and the source that saved it. Behind the name it is
/// one of HealthFlow's samples.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public class HKObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowSample: HealthSample

    init(healthFlowSample: HealthSample) {
        self.healthFlowSample = healthFlowSample
    }

    /// The object's identifier, assigned when the object is made.
    public var uuid: UUID { healthFlowSample.uuid }

    /// The object's metadata (`nil` when it has none): strings, `NSNumber`s, dates and quantities.
    public var metadata: [String: Any]? { ShimMetadata.healthKit(healthFlowSample.metadata) }

    /// The app (and version) that saved the object.
    public var sourceRevision: HKSourceRevision {
        HKSourceRevision(source: HKSource(healthFlowSource: healthFlowSample.source), version: nil)
    }

    /// The device that produced the object (the shim records none).
    public var device: HKDevice? { nil }

    /// Objects are equal when their UUIDs are.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKObject)?.uuid == uuid
    }

    /// A hash of the UUID.
    public override var hash: Int { uuid.hashValue }

    /// The HealthKit object for a HealthFlow sample.
    static func make(_ sample: HealthSample) -> HKSample {
        switch sample {
        case .quantity: HKQuantitySample(healthFlowSample: sample)
        case .category: HKCategorySample(healthFlowSample: sample)
        case .correlation: HKCorrelation(healthFlowSample: sample)
        case .electrocardiogram: HKElectrocardiogram(healthFlowSample: sample)
        case .workout, .heartbeatSeries: HKSample(healthFlowSample: sample)
        }
    }
}

/// A sample: an object with a type, a start and an end date.
public class HKSample: HKObject, @unchecked Sendable {
    /// The sample's type.
    public var sampleType: HKSampleType {
        // Every sample type maps to an HKSampleType subclass.
        HKShimTypes.objectType(healthFlowSample.type) as? HKSampleType ?? HKSampleType(healthFlowType: .workout)
    }

    /// When the sample starts.
    public var startDate: Date { healthFlowSample.startDate }

    /// When the sample ends (equal to the start for an instant).
    public var endDate: Date { healthFlowSample.endDate }

    /// Whether the sample has no end yet (never, in the shim).
    public var hasUndeterminedDuration: Bool { false }

    /// A sample that apps make: HealthKit's metadata, converted (an unsupported value raises), and the
    /// placeholder source go to `make`, which applies HealthFlow's rules; where HealthFlow throws, HealthKit raises.
    convenience init(
        metadata: [String: Any]?,
        _ make: (_ metadata: [MetadataKey: MetadataValue], _ source: HealthSource) throws(ValidationError) ->
            HealthSample
    ) {
        let metadata = ShimMetadata.healthFlow(metadata)
        do {
            self.init(healthFlowSample: try make(metadata, ShimPlaceholder.source))
        } catch {
            HKShimException.raise(ShimExceptionReason.message(for: error))
        }
    }
}

/// The source a sample gets before it is saved (saving stamps the store's app, as HealthKit does).
enum ShimPlaceholder {
    static let source = HealthSource(bundleIdentifier: "unsaved", name: "unsaved")
}
