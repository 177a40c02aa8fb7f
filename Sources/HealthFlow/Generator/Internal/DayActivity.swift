import Foundation

/// One day's minute-by-minute movement: steps per minute, and which minutes are exercise or running.
///
/// The rhythm: asleep until `wake`, then light pottering (rarer during weekday desk hours), walking
/// bouts (weekday commutes and lunch walks; longer weekend walks), sometimes a workout (a run or a brisk
/// walk), asleep again from `bed`. Cadences: walking 85–115 steps/min, brisk walking 115–130, running
/// 150–170. A minute at 100 steps/min or more counts as exercise.
struct DayActivity: Sendable {
    /// Minutes since the day's start.
    let wake: Int
    let bed: Int
    var steps: [Int]
    var running: [Bool]

    static let exerciseCadence = 100

    init(
        minutes: Int, wake: Int, bed: Int, isWeekend: Bool, profile: PersonProfile,
        rng: inout SeededRandomNumberGenerator
    ) {
        self.wake = wake
        self.bed = bed
        steps = [Int](repeating: 0, count: minutes)
        running = [Bool](repeating: false, count: minutes)
        // Pottering about.
        for minute in wake..<bed {
            let desk = !isWeekend && ((9 * 60..<12 * 60).contains(minute) || (13 * 60..<17 * 60).contains(minute))
            if rng.chance(desk ? 0.05 : 0.25) { steps[minute] = rng.int(in: 1...20) }
        }
        let level = profile.activityLevel
        func length(_ range: ClosedRange<Int>) -> Int { Int((Double(rng.int(in: range)) * level).rounded()) }
        if isWeekend {
            for _ in 0..<rng.int(in: 1...2) {
                let duration = length(20...58)
                addBout(at: rng.int(in: 10 * 60...16 * 60), minutes: duration, cadence: 85...110, rng: &rng)
            }
        } else {
            addBout(at: wake + rng.int(in: 60...90), minutes: length(8...16), cadence: 95...115, rng: &rng)
            if rng.chance(0.5) {
                addBout(at: rng.int(in: 12 * 60...12 * 60 + 40), minutes: length(10...20), cadence: 90...110, rng: &rng)
            }
            addBout(at: rng.int(in: 17 * 60...18 * 60 + 30), minutes: length(8...16), cadence: 95...115, rng: &rng)
            if rng.chance(0.3) {
                addBout(at: rng.int(in: 19 * 60...20 * 60 + 30), minutes: length(15...33), cadence: 85...110, rng: &rng)
            }
        }
        if rng.chance((isWeekend ? 0.5 : 0.35) * level) {
            let start = isWeekend ? rng.int(in: 9 * 60...11 * 60) : rng.int(in: 18 * 60...19 * 60 + 30)
            let runs = rng.chance(0.7)
            addBout(
                at: start, minutes: length(20...45), cadence: runs ? 150...170 : 115...130, running: runs, rng: &rng)
        }
    }

    private mutating func addBout(
        at start: Int, minutes: Int, cadence: ClosedRange<Int>, running isRunning: Bool = false,
        rng: inout SeededRandomNumberGenerator
    ) {
        let base = Double(rng.int(in: cadence))
        for minute in max(start, wake)..<max(max(start, wake), min(start + minutes, bed)) {
            steps[minute] = max(steps[minute], Int(max(0, rng.normal(mean: base, standardDeviation: 4)).rounded()))
            if isRunning { running[minute] = true }
        }
    }

    func isAwake(_ minute: Int) -> Bool { minute >= wake && minute < bed }

    func isExercise(_ minute: Int) -> Bool { steps[minute] >= Self.exerciseCadence }

    /// Meters walked or run in the minute.
    func distance(_ minute: Int, profile: PersonProfile) -> Double {
        Double(steps[minute]) * (running[minute] ? profile.runningStride : profile.walkingStride)
    }

    /// Active kilocalories in the minute: a little for being awake, more per step, more still running.
    func activeEnergy(_ minute: Int, profile: PersonProfile) -> Double {
        guard isAwake(minute) else { return 0 }
        let scale = profile.bodyMassStart / 70
        let perStep = running[minute] ? 0.065 : 0.04
        return (0.1 + Double(steps[minute]) * perStep) * scale
    }

    /// Heart rate in beats per minute for the minute, before noise.
    func heartRate(_ minute: Int, resting: Double) -> Double {
        guard isAwake(minute) else { return resting - 6 }
        let cadence = Double(steps[minute])
        if running[minute] { return resting + 85 + (cadence - 150) * 0.5 }
        if cadence >= 80 { return resting + 30 + (cadence - 90) * 0.5 }
        return resting + 8 + cadence * 0.3
    }
}
