import Foundation
import HealthFlow

/// One day of activity rings: move, exercise and stand values with their goals.
///
/// ```swift
/// let day = summary.dateComponents(for: Calendar.current)
/// let move = summary.activeEnergyBurned.doubleValue(for: .kilocalorie())
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKActivitySummary: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowSummary: ActivitySummary

    init(healthFlowSummary: ActivitySummary) {
        self.healthFlowSummary = healthFlowSummary
    }

    /// The summary's day in `calendar`.
    ///
    /// ```swift
    /// summary.dateComponents(for: Calendar(identifier: .gregorian)).day
    /// ```
    public func dateComponents(for calendar: Calendar) -> DateComponents {
        var components = calendar.dateComponents(
            [.era, .year, .month, .day], from: healthFlowSummary.dateInterval.start)
        components.calendar = calendar
        return components
    }

    /// Whether the move ring counts energy or minutes.
    ///
    /// ```swift
    /// summary.activityMoveMode == .activeEnergy
    /// ```
    public var activityMoveMode: HKActivityMoveMode {
        healthFlowSummary.activityMoveMode == .appleMoveTime ? .appleMoveTime : .activeEnergy
    }

    /// Whether the person paused their rings that day.
    ///
    /// ```swift
    /// summary.isPaused
    /// ```
    public var isPaused: Bool { healthFlowSummary.isPaused }

    /// Active energy burned (kcal).
    ///
    /// ```swift
    /// summary.activeEnergyBurned.doubleValue(for: .kilocalorie())
    /// ```
    public var activeEnergyBurned: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.activeEnergyBurned) }

    /// The move goal in energy (kcal).
    ///
    /// ```swift
    /// summary.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie())
    /// ```
    public var activeEnergyBurnedGoal: HKQuantity {
        HKQuantity(healthFlowQuantity: healthFlowSummary.activeEnergyBurnedGoal)
    }

    /// Move minutes.
    ///
    /// ```swift
    /// summary.appleMoveTime.doubleValue(for: .minute())
    /// ```
    public var appleMoveTime: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleMoveTime) }

    /// The move goal in minutes.
    ///
    /// ```swift
    /// summary.appleMoveTimeGoal.doubleValue(for: .minute())
    /// ```
    public var appleMoveTimeGoal: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleMoveTimeGoal) }

    /// Exercise minutes.
    ///
    /// ```swift
    /// summary.appleExerciseTime.doubleValue(for: .minute())
    /// ```
    public var appleExerciseTime: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleExerciseTime) }

    /// The exercise goal in minutes (iOS 16's name).
    ///
    /// ```swift
    /// summary.exerciseTimeGoal?.doubleValue(for: .minute())
    /// ```
    public var exerciseTimeGoal: HKQuantity? { HKQuantity(healthFlowQuantity: healthFlowSummary.exerciseTimeGoal) }

    /// Stand hours.
    ///
    /// ```swift
    /// summary.appleStandHours.doubleValue(for: .count())
    /// ```
    public var appleStandHours: HKQuantity { HKQuantity(healthFlowQuantity: healthFlowSummary.appleStandHours) }

    /// The stand goal in hours (iOS 16's name).
    ///
    /// ```swift
    /// summary.standHoursGoal?.doubleValue(for: .count())
    /// ```
    public var standHoursGoal: HKQuantity? { HKQuantity(healthFlowQuantity: healthFlowSummary.standHoursGoal) }
}

/// How the move ring is measured.
///
/// ```swift
/// HKActivityMoveMode.appleMoveTime.rawValue   // 2
/// ```
public enum HKActivityMoveMode: Int, Sendable {
    /// Active energy (kcal).
    case activeEnergy = 1
    /// Move minutes.
    case appleMoveTime = 2
}
