import Foundation

/// One night's sleep stages: contiguous segments from falling asleep to the final awakening, in cycles
/// of 80–110 minutes (core, deep, core, REM, sometimes a brief awakening); deep sleep early in the
/// night, REM growing towards morning.
enum SleepNight {
    /// - Returns: Segments `(stage, start, end)` that tile `[onset, finalWake]` with no gaps or overlaps;
    ///   adjacent segments never share a stage.
    static func stages(
        from onset: Date, to finalWake: Date, rng: inout SeededRandomNumberGenerator
    ) -> [(SleepAnalysisValue, Date, Date)] {
        var plan: [(SleepAnalysisValue, Int)] = []
        var total = 0
        let available = Int(finalWake.timeIntervalSince(onset) / 60)
        var cycle = 0
        while total < available {
            let length = rng.int(in: 80...110)
            let deep = cycle < 2 ? rng.int(in: 20...35) : rng.int(in: 0...10)
            let rem = cycle == 0 ? rng.int(in: 5...12) : rng.int(in: 15...35)
            let core = length - deep - rem
            let firstCore = core / 2
            var segments: [(SleepAnalysisValue, Int)] = [
                (.asleepCore, firstCore), (.asleepDeep, deep), (.asleepCore, core - firstCore), (.asleepREM, rem),
            ]
            if rng.chance(0.35) { segments.append((.awake, rng.int(in: 1...6))) }
            plan += segments
            total += segments.reduce(0) { $0 + $1.1 }
            cycle += 1
        }
        var segments: [(SleepAnalysisValue, Date, Date)] = []
        var start = onset
        for (stage, minutes) in plan where minutes > 0 && start < finalWake {
            let end = min(start.addingTimeInterval(Double(minutes) * 60), finalWake)
            if let last = segments.last, last.0 == stage {
                segments[segments.count - 1].2 = end
            } else {
                segments.append((stage, start, end))
            }
            start = end
        }
        if let last = segments.last, last.2 < finalWake { segments[segments.count - 1].2 = finalWake }
        return segments
    }
}
