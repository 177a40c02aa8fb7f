import HealthFlow
import Testing

extension DocExamples {
    /// The examples of `HealthFlow.docc/HealthStoreRules.md`.
    @Suite struct HealthStoreRules {
        let app = HealthAppConfiguration(
            bundleIdentifier: "com.example.scale", name: "Scale",
            healthShareUsageDescription: "Shows your weight.", healthUpdateUsageDescription: "Logs your weight.")

        @Test func aPolicyAnswersTheSheetAndStatusReportsSharingOnly() async throws {
            let store = InMemoryHealthStore(configuration: app, policy: .deny(share: [.bodyMass]))

            try await store.requestAuthorization(toShare: [.bodyMass, .height], read: [.bodyMass])
            #expect(store.authorizationStatus(for: .bodyMass) == .sharingDenied)
            #expect(store.authorizationStatus(for: .height) == .sharingAuthorized)
            #expect(store.authorizationStatus(for: .stepCount) == .notDetermined)
        }

        @Test func aScriptedPolicyCancelsTheSheetForOneType() async throws {
            let policy = AuthorizationPolicy.scripted { request in
                request.read.contains(.heartRate) ? .canceled : request.grantingAll
            }
            let store = InMemoryHealthStore(configuration: app, policy: policy)

            await #expect(throws: HealthStoreError.userCanceled) {
                try await store.requestAuthorization(toShare: [], read: [.heartRate])
            }
            try await store.requestAuthorization(toShare: [.height], read: [.height])
            #expect(store.authorizationStatus(for: .height) == .sharingAuthorized)
        }
    }

    /// The units example of `HealthFlow.docc/HealthFlow.md`.
    @Suite struct HealthFlowUnits {
        @Test func unitsParseCompareAndConvert() throws {
            let vo2 = try HealthUnit(from: "mL/(kg*min)")
            let same = HealthUnit.literUnit(with: .milli)
                .unitDivided(by: .gramUnit(with: .kilo).unitMultiplied(by: .minute()))
            #expect(vo2 == same)
            #expect(vo2.unitString == "mL/min·kg")

            let height = HealthQuantity(unit: .meterUnit(with: .centi), doubleValue: 172)
            #expect(try height.doubleValue(for: .meter()) == 1.72)
            #expect(throws: UnitError.incompatible(from: .meterUnit(with: .centi), to: .gram())) {
                try height.doubleValue(for: .gram())
            }

            let mmolPerL = try HealthUnit(from: "mmol<180.15588000005408>/L")  // glucose: 180.156 g/mol
            let mgPerDL = try HealthUnit(from: "mg/dL")
            #expect(try HealthUnit.convert(5.5, from: mmolPerL, to: mgPerDL).rounded() == 99)
        }
    }
}
