import Foundation
import HealthFlow
import Testing

struct HealthCategorySampleTests {
    @Test(arguments: SleepAnalysisValue.allCases)
    func acceptsEverySleepAnalysisValue(stage: SleepAnalysisValue) throws {
        let sample = try HealthCategorySample(
            stage, start: Fixture.noon, end: Fixture.oneHourLater, source: Fixture.watch)
        #expect(sample.type == .sleepAnalysis)
        #expect(sample.value == stage.rawValue)
        #expect(sample.value(as: SleepAnalysisValue.self) == stage)
        #expect(sample.value(as: AppleStandHourValue.self) == nil)
    }

    @Test(arguments: [-1, 6, 100, Int.max, Int.min])
    func rejectsSleepValuesOutsideTheSet(value: Int) {
        #expect(
            throws: ValidationError.invalidCategoryValue(.sleepAnalysis, value: value, allowed: [0, 1, 2, 3, 4, 5])
        ) {
            try HealthCategorySample(
                type: .sleepAnalysis, value: value, start: Fixture.noon, end: Fixture.oneHourLater,
                source: Fixture.source)
        }
    }

    @Test func invalidCategoryValueDescriptionListsTheAllowedValues() {
        #expect(
            ValidationError.invalidCategoryValue(.sleepAnalysis, value: 9, allowed: [0, 1, 2, 3, 4, 5]).description
                == "sleepAnalysis value must be one of 0, 1, 2, 3, 4, 5; got 9")
    }

    @Test func menstrualFlowRequiresTheCycleStartFlag() throws {
        #expect(throws: ValidationError.missingMetadata(.menstrualFlow, key: .menstrualCycleStart)) {
            try HealthCategorySample(
                MenstrualFlowValue.light, start: Fixture.noon, end: Fixture.noon, source: Fixture.source)
        }
        #expect(
            throws: ValidationError.invalidMetadataValue(
                .menstrualFlow, key: .menstrualCycleStart, value: .string("yes"), expected: "a Boolean number (0 or 1)")
        ) {
            try HealthCategorySample(
                MenstrualFlowValue.light, start: Fixture.noon, end: Fixture.noon, source: Fixture.source,
                metadata: [.menstrualCycleStart: "yes"])
        }
        let flow = try HealthCategorySample(
            MenstrualFlowValue.heavy, start: Fixture.noon, end: Fixture.noon, source: Fixture.source,
            metadata: [.menstrualCycleStart: true])
        #expect(flow.value == 4)
        #expect(throws: ValidationError.invalidCategoryValue(.menstrualFlow, value: 0, allowed: [1, 2, 3, 4, 5])) {
            try HealthCategorySample(
                type: .menstrualFlow, value: 0, start: Fixture.noon, end: Fixture.noon, source: Fixture.source,
                metadata: [.menstrualCycleStart: false])
        }
    }

    @Test func onlyCategoryTypesMakeCategorySamples() {
        #expect(throws: ValidationError.wrongKind(.stepCount, expected: .category)) {
            try HealthCategorySample(
                type: .stepCount, value: 0, start: Fixture.noon, end: Fixture.noon, source: Fixture.source)
        }
        #expect(throws: ValidationError.notASampleType(.biologicalSex)) {
            try HealthCategorySample(
                type: .biologicalSex, value: 0, start: Fixture.noon, end: Fixture.noon, source: Fixture.source)
        }
        #expect(
            ValidationError.wrongKind(.stepCount, expected: .category).description
                == "stepCount is a quantity type; expected a category type")
    }

    @Test func rejectsEndBeforeStart() {
        #expect(
            throws: ValidationError.endBeforeStart(.sleepAnalysis, start: Fixture.oneHourLater, end: Fixture.noon)
        ) {
            try HealthCategorySample(
                SleepAnalysisValue.inBed, start: Fixture.oneHourLater, end: Fixture.noon, source: Fixture.source)
        }
    }

    @Test func codesAndValidatesOnDecode() throws {
        let sample = try HealthCategorySample(
            AppleStandHourValue.stood, start: Fixture.noon, end: Fixture.oneHourLater, source: Fixture.watch)
        let data = try Fixture.encoder().encode(sample)
        #expect(try JSONDecoder().decode(HealthCategorySample.self, from: data) == sample)
        let tampered = Data(
            String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""value":0"#, with: #""value":7"#).utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthCategorySample.self, from: tampered) }
    }
}
