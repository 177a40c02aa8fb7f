import Foundation
import ProductSupport
import Testing

/// The signature check: the shim's public declarations, listed from the built module's symbol graph, match
/// the checked-in `Sources/HealthKitShim/API.txt` that a reviewer compares with the iOS 18 SDK headers.
@Suite struct ShimAPIListTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func checkedInAPIListMatchesTheBuiltShim() async throws {
        let modules = ShimExceptionProbeTests.productsDirectory.appendingPathComponent("Modules")
        let finished = try await onOwnThread {
            try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                arguments: [
                    "python3",
                    Self.packageRoot.appendingPathComponent("Tests/HealthKitBridgeTests/Scripts/shim-api.py").path,
                    modules.path,
                ], errors: .inherited)
        }
        #expect(finished.termination == .exited(0))
        let listed = finished.outputText
        let checkedIn = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Sources/HealthKitShim/API.txt"), encoding: .utf8)
        #expect(listed.split(separator: "\n").count > 400)
        #expect(listed == checkedIn, "regenerate with Tests/HealthKitBridgeTests/Scripts/shim-api.py (see its header)")
        // A few declarations a reviewer checks against the headers first.
        for expected in [
            "HKObjectType.quantityType(forIdentifier:)  ::  class func quantityType(forIdentifier identifier: "
                + "HKQuantityTypeIdentifier) -> HKQuantityType?",
            "HKHealthStore.requestAuthorization(toShare:read:completion:)  ::  func requestAuthorization(toShare "
                + "typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?, completion: @escaping "
                + "@Sendable (Bool, (any Error)?) -> Void)",
            "HKUnit.init(from:)  ::  convenience init(from string: String)",
        ] {
            #expect(checkedIn.contains(expected))
        }
    }
}
