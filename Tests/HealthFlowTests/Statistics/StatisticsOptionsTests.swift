import HealthFlow
import Testing

struct StatisticsOptionsTests {
    static let discreteOnly: [StatisticsOptions] = [.discreteAverage, .discreteMin, .discreteMax]
    static let everywhere: [StatisticsOptions] = [.mostRecent, .duration, .separateBySource, []]

    /// Every single option against one type of each aggregation style: the legality table.
    static let table: [(StatisticsOptions, HealthObjectType, Bool)] = {
        var rows: [(StatisticsOptions, HealthObjectType, Bool)] = []
        let cumulative: [HealthObjectType] = [.stepCount, .activeEnergyBurned, .dietaryWater]
        let discrete: [HealthObjectType] = [.heartRate, .bodyMass, .bloodGlucose, .environmentalAudioExposure]
        for type in cumulative {
            for option in discreteOnly { rows.append((option, type, false)) }
            rows.append((.cumulativeSum, type, true))
            for option in everywhere { rows.append((option, type, true)) }
        }
        for type in discrete {
            for option in discreteOnly { rows.append((option, type, true)) }
            rows.append((.cumulativeSum, type, false))
            for option in everywhere { rows.append((option, type, true)) }
        }
        return rows
    }()

    @Test(arguments: table)
    func optionLegalityFollowsTheAggregationStyle(option: StatisticsOptions, type: HealthObjectType, legal: Bool) {
        if legal {
            #expect(throws: Never.self) { try option.validate(for: type) }
        } else {
            #expect(throws: StatisticsError.incompatibleOption(option, type: type)) { try option.validate(for: type) }
        }
    }

    @Test func averageOfStepsNamesOptionAndType() {
        #expect(
            StatisticsError.incompatibleOption(.discreteAverage, type: .stepCount).description
                == "Statistics option discreteAverage is not compatible with cumulative data type stepCount")
        #expect(
            StatisticsError.incompatibleOption(.cumulativeSum, type: .heartRate).description
                == "Statistics option cumulativeSum is not compatible with discrete data type heartRate")
    }

    @Test func firstOffendingOptionIsReportedInRawValueOrder() {
        #expect(throws: StatisticsError.incompatibleOption(.discreteMin, type: .stepCount)) {
            try StatisticsOptions([.cumulativeSum, .discreteMax, .discreteMin, .separateBySource])
                .validate(for: .stepCount)
        }
    }

    static let nonQuantityTypes: [HealthObjectType] = [
        .sleepAnalysis, .appleStandHour, .bloodPressure, .food, .dateOfBirth, .activitySummary, .electrocardiogram,
        .workout,
    ]

    @Test(arguments: nonQuantityTypes)
    func statisticsRequireAQuantityType(type: HealthObjectType) {
        #expect(throws: StatisticsError.notAQuantityType(type)) { try StatisticsOptions.mostRecent.validate(for: type) }
    }

    @Test func nonQuantityTypeErrorIsReadable() {
        #expect(
            StatisticsError.notAQuantityType(.sleepAnalysis).description
                == "Statistics require a quantity type; sleepAnalysis is a category type")
    }

    @Test func unknownBitsAreATypedError() {
        #expect(throws: StatisticsError.unknownOptions(rawValue: 1 << 9)) {
            try StatisticsOptions(rawValue: 1 << 9 | 1 << 4).validate(for: .stepCount)
        }
    }

    @Test func rawValuesAreHealthKits() {
        #expect(
            [
                StatisticsOptions.separateBySource, .discreteAverage, .discreteMin, .discreteMax, .cumulativeSum,
                .mostRecent, .duration,
            ].map(\.rawValue) == [1, 2, 4, 8, 16, 32, 64])
    }

    @Test func descriptionListsNames() {
        #expect(
            StatisticsOptions([.cumulativeSum, .separateBySource]).description == "[separateBySource, cumulativeSum]")
        #expect(StatisticsOptions(rawValue: 1 << 8).description == "[0x100]")
    }
}
