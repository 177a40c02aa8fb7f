import Foundation
import HealthFlow

/// One day of activity rings: move, exercise and stand values with their goals.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKActivitySummary: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowSummary: ActivitySummary

    init(healthFlowSummary: ActivitySummary) {
        self.healthFlowSummary = healthFlowSummary
    }

    /// The summary's day in `calendar`.
    public func dateComponents(for calendar: Calendar) -> DateComponents {
        var components = calendar.dateComponents(
            [.era, .year, .month, .day], from: healthFlowSummary.dateInterval.start)
        components.calendar = calendar
        return components
    }

    /// Whether the move ring counts energy or minutes.
    public var activityMoveMode: HKActivityMoveMode {
        healthFlowSummary.activityMoveMode
    }

    /// Whether the person paused their rings that day.
    public var isPaused: Bool { healthFlowSummary.isPaused }

    /// Active energy burned (kcal).
    public var activeEnergyBurned: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.activeEnergyBurned) }

    /// The move goal in energy (kcal).
    public var activeEnergyBurnedGoal: HKQuantity {
        HKQuantity(healthFlowQuantity: healthFlowSummary.activeEnergyBurnedGoal)
    }

    /// Move minutes.
    public var appleMoveTime: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleMoveTime) }

    /// The move goal in minutes.
    public var appleMoveTimeGoal: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleMoveTimeGoal) }

    /// Exercise minutes.
    public var appleExerciseTime: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleExerciseTime) }

    /// The exercise goal in minutes (iOS 16's name).
    public var exerciseTimeGoal: HKQuantity? { HKQuantity(healthFlowQuantity: healthFlowSummary.exerciseTimeGoal) }

    /// Stand hours.
    public var appleStandHours: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleStandHours) }

    /// The stand goal in hours (iOS 16's name).
    public var standHoursGoal: HKQuantity? { HKQuantity(healthFlowQuantity: healthFlowSummary.standHoursGoal) }
}

/// How the move ring is measured: HealthFlow's own enum, whose cases and raw values are HealthKit's.
public typealias HKActivityMoveMode = ActivityMoveMode
