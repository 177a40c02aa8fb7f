/// The daily goals an `ActivitySummaryBuilder` writes into every summary it derives.
public struct ActivitySummaryGoals: Hashable, Sendable, Codable {
    /// Active energy goal in kilocalories.
    public let activeEnergyBurned: Double
    /// Move-minutes goal (for the `appleMoveTime` move mode).
    public let appleMoveTime: Double
    /// Exercise goal in minutes.
    public let exerciseTime: Double
    /// Stand-hours goal.
    public let standHours: Double
    /// What the move ring measures.
    public let moveMode: ActivityMoveMode

    /// The Activity app's usual goals: 500 kcal, 30 move minutes, 30 exercise minutes, 12 stand hours,
    /// moving by active energy.
    public static let standard = ActivitySummaryGoals(unchecked: 500, 30, 30, 12, .activeEnergy)

    /// Makes checked goals; the defaults are the Activity app's usual ones (500 kcal, 30 min, 12 hours).
    ///
    /// - Parameters:
    ///   - activeEnergyBurned: Kilocalories.
    ///   - appleMoveTime: Minutes.
    ///   - exerciseTime: Minutes.
    ///   - standHours: Hours.
    ///   - moveMode: What the move ring measures.
    /// - Throws: `ActivitySummaryError.invalidValue` for a negative or non-finite goal.
    public init(
        activeEnergyBurned: Double = 500, appleMoveTime: Double = 30, exerciseTime: Double = 30,
        standHours: Double = 12, moveMode: ActivityMoveMode = .activeEnergy
    ) throws(ActivitySummaryError) {
        let checks = [
            ("activeEnergyBurnedGoal", activeEnergyBurned), ("appleMoveTimeGoal", appleMoveTime),
            ("exerciseTimeGoal", exerciseTime), ("standHoursGoal", standHours),
        ]
        for (field, value) in checks where !(value.isFinite && value >= 0) {
            throw .invalidValue(field: field, value: value)
        }
        self.activeEnergyBurned = activeEnergyBurned
        self.appleMoveTime = appleMoveTime
        self.exerciseTime = exerciseTime
        self.standHours = standHours
        self.moveMode = moveMode
    }

    /// Goals known to be valid (finite, not negative), without checks.
    init(
        unchecked activeEnergyBurned: Double, _ appleMoveTime: Double, _ exerciseTime: Double, _ standHours: Double,
        _ moveMode: ActivityMoveMode
    ) {
        self.activeEnergyBurned = activeEnergyBurned
        self.appleMoveTime = appleMoveTime
        self.exerciseTime = exerciseTime
        self.standHours = standHours
        self.moveMode = moveMode
    }
}
