import FlowKit
import Foundation
import HealthFlow
@_spi(Testing) import HealthKitShim
import Testing

/// The shim on its own: HealthKit's names answer as HealthKit does, on HealthFlow's model.
@Suite struct HealthKitShimTests {
    let noon = Date(timeIntervalSince1970: 1_709_294_400)

    @Test func typeLookupsReturnNilForUnknownOrMismatchedIdentifiers() {
        #expect(HKObjectType.quantityType(forIdentifier: .height)?.identifier == "HKQuantityTypeIdentifierHeight")
        #expect(HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: "HKNoSuchType")) == nil)
        #expect(
            HKObjectType.categoryType(
                forIdentifier: HKCategoryTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeight"))
                == nil)
        #expect(HKQuantityType(.stepCount).aggregationStyle == .cumulative)
        #expect(HKQuantityType(.heartRate).aggregationStyle == .discreteTemporallyWeighted)
        let types: Set<HKObjectType> = [HKQuantityType(.height), HKObjectType.quantityType(forIdentifier: .height)!]
        #expect(types.count == 1)
    }

    @Test func identifiersMadeFromAStringEitherWayAreEqual() {
        #expect(HKQuantityTypeIdentifier("HKQuantityTypeIdentifierHeight") == .height)
        #expect(HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSleepAnalysis") == .sleepAnalysis)
        #expect(HKCorrelationTypeIdentifier("HKCorrelationTypeIdentifierFood") == .food)
        #expect(HKCharacteristicTypeIdentifier("HKCharacteristicTypeIdentifierBloodType") == .bloodType)
        #expect(HKQuantityTypeIdentifier("HKNoSuchType").rawValue == "HKNoSuchType")
    }

    @Test func unitsAndQuantitiesFollowHealthKitsGrammarAndRawValues() {
        #expect(HKUnit(from: "mg/dL") == HKUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci)))
        #expect(HKUnit.meterUnit(with: .centi).unitString == "cm")
        #expect(HKQuantity(unit: .meterUnit(with: .centi), doubleValue: 180).doubleValue(for: .meter()) == 1.8)
        #expect(
            HKQuantity(unit: .meter(), doubleValue: 1).compare(HKQuantity(unit: .foot(), doubleValue: 1))
                == .orderedDescending)
        #expect(!HKQuantity(unit: .meter(), doubleValue: 1).is(compatibleWith: .gram()))
        #expect(HKMetricPrefix.kilo.rawValue == 9)
        #expect(HKMetricPrefix.femto.rawValue == 13)
        #expect(HKStatisticsOptions.cumulativeSum.rawValue == 16)
        #expect(HKQueryOptions.strictEndDate.rawValue == 2)
        #expect(HKError.Code.errorDataSizeExceeded.rawValue == 13)
        #expect(HKError.errorDomain == "com.apple.healthkit")
    }

    /// These shim names are HealthFlow's enums; HealthKit's case names must read as HealthKit's raw values.
    @Test func enumsSharedWithHealthFlowHaveHealthKitsRawValues() {
        #expect(HKBiologicalSex.other.rawValue == 3)
        #expect(HKBloodType.abNegative.rawValue == 6)
        #expect(HKBloodType.oNegative.rawValue == 8)
        #expect(HKWheelchairUse.yes.rawValue == 2)
        #expect(HKActivityMoveMode.appleMoveTime.rawValue == 2)
        #expect(HKCategoryValueSleepAnalysis.asleepREM.rawValue == 5)
        #expect(HKElectrocardiogram.Classification.inconclusiveOther.rawValue == 6)
        #expect(HKElectrocardiogram.Classification.unrecognized.rawValue == 100)
        #expect(HKElectrocardiogram.SymptomsStatus.present.rawValue == 2)
        #expect(HKAuthorizationStatus.sharingAuthorized.rawValue == 2)
        #expect(HKAuthorizationRequestStatus.unnecessary.rawValue == 2)
    }

    @Test func prefixedUnitBuildersPutThePrefixOnTheirOwnBaseUnit() {
        let built: [(HKUnit, String)] = [
            (.meterUnit(with: .kilo), "km"), (.gramUnit(with: .micro), "mcg"), (.literUnit(with: .milli), "mL"),
            (.secondUnit(with: .milli), "ms"), (.jouleUnit(with: .kilo), "kJ"), (.pascalUnit(with: .kilo), "kPa"),
            (.kelvinUnit(with: .milli), "mK"), (.siemenUnit(with: .milli), "mS"), (.hertzUnit(with: .mega), "MHz"),
            (.voltUnit(with: .milli), "mV"),
        ]
        for (unit, expected) in built {
            #expect(unit.unitString == expected)
        }
    }

    @Test func optionBitsAreHealthKits() {
        let statistics: [HKStatisticsOptions] = [
            .separateBySource, .discreteAverage, .discreteMin, .discreteMax, .cumulativeSum, .mostRecent, .duration,
        ]
        #expect(statistics.map(\.rawValue) == (0..<7).map { 1 << $0 })
        #expect([HKQueryOptions.strictStartDate, .strictEndDate].map(\.rawValue) == [1, 2])
    }

    @Test func savedSamplesComeBackSortedAndFilteredWithHealthKitMetadata() async throws {
        let device = HealthKitShimDevice(backend: HealthKitShimDevice.makeDefaultBackend())
        let store = HKHealthStore(device: device)
        let height = HKQuantityType(.height)
        let (authorized, granted) = Promise<Void>.pending()
        store.requestAuthorization(toShare: [height], read: [height]) { _, _ in granted.fulfill() }
        try await authorized.value
        let samples = (0..<3).map { index in
            HKQuantitySample(
                type: height, quantity: HKQuantity(unit: .meterUnit(with: .centi), doubleValue: 170 + Double(index)),
                start: noon.addingTimeInterval(Double(index) * 3600),
                end: noon.addingTimeInterval(Double(index) * 3600),
                metadata: [HKMetadataKeyWasUserEntered: true, "Note": "n\(index)"])
        }
        let (saved, savedResolver) = Promise<Bool>.pending()
        store.save(samples) { success, _ in savedResolver.fulfill(success) }
        #expect(try await saved.value)
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            HKQuery.predicateForSamples(withStart: noon.addingTimeInterval(1800), end: nil),
            HKQuery.predicateForObjects(from: .default()),
        ])
        let (results, resultsResolver) = Promise<[HKQuantitySample]>.pending()
        let query = HKSampleQuery(
            sampleType: height, predicate: predicate, limit: HKObjectQueryNoLimit,
            sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]
        ) { _, samples, _ in resultsResolver.fulfill(samples as? [HKQuantitySample] ?? []) }
        store.execute(query)
        let found = try await results.value
        #expect(found.map { $0.quantity.doubleValue(for: .meterUnit(with: .centi)) } == [172, 171])
        #expect(found.map(\.uuid) == [samples[2].uuid, samples[1].uuid])
        #expect((found.first?.metadata?[HKMetadataKeyWasUserEntered] as? NSNumber)?.boolValue == true)
        #expect(found.first?.metadata?["Note"] as? String == "n2")
        #expect(found.first?.sourceRevision.source == HKSource.default())
    }

    /// HealthKit keeps an executing query alive and lets it go when it finished: an executed query and what its
    /// handler holds must not keep each other alive afterwards.
    @Test func aFinishedQueryIsReleasedWithWhatItsHandlerHolds() async throws {
        let store = HKHealthStore(device: HealthKitShimDevice(backend: HealthKitShimDevice.makeDefaultBackend()))
        func runQuery() async throws -> HKSampleQuery {
            let (done, resolver) = Promise<Void>.pending()
            let query = HKSampleQuery(
                sampleType: HKQuantityType(.height), predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil
            ) { _, _, _ in resolver.fulfill() }
            store.execute(query)
            try await done.value
            return query
        }
        weak let first = try await runQuery()
        // Handlers run one at a time, in order: once the second has run, the first handler's call has returned.
        _ = try await runQuery()
        #expect(first == nil, "a finished query is still alive: it and its HealthFlow query hold each other")
    }

    @Test func refusalsArriveAsHealthKitErrors() async throws {
        let backend = InMemoryHealthStore(
            configuration: HealthKitShimDevice.makeDefaultBackend().configuration, policy: .deny(share: [.bodyMass]))
        let store = HKHealthStore(device: HealthKitShimDevice(backend: backend))
        let mass = HKQuantityType(.bodyMass)
        let sample = HKQuantitySample(
            type: mass, quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70), start: noon, end: noon)
        let (notDetermined, first) = Promise<HKError?>.pending()
        store.save(sample) { _, error in first.fulfill(error as? HKError) }
        #expect(try await notDetermined.value?.code == .errorAuthorizationNotDetermined)
        let (asked, answered) = Promise<Void>.pending()
        store.requestAuthorization(toShare: [mass], read: []) { _, _ in answered.fulfill() }
        try await asked.value
        #expect(store.authorizationStatus(for: mass) == .sharingDenied)
        let (denied, second) = Promise<HKError?>.pending()
        store.save(sample) { _, error in second.fulfill(error as? HKError) }
        #expect(try await denied.value?.code == .errorAuthorizationDenied)
    }

    @Test func correlationsKeepTheirMembers() {
        let systolic = HKQuantitySample(
            type: HKQuantityType(.bloodPressureSystolic),
            quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 120),
            start: noon, end: noon)
        let diastolic = HKQuantitySample(
            type: HKQuantityType(.bloodPressureDiastolic),
            quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 80),
            start: noon, end: noon)
        let reading = HKCorrelation(
            type: HKCorrelationType(.bloodPressure), start: noon, end: noon, objects: [systolic, diastolic])
        #expect(reading.objects.count == 2)
        #expect(reading.objects(for: HKQuantityType(.bloodPressureSystolic)).map(\.uuid) == [systolic.uuid])
    }
}
