import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import WriteHeightExample

/// `healthflow demo`: every workflow end to end on the embedded store, over a generated year of one person's
/// data — authorize → status → write → fetch → statistics → activity rings → a graph of parallel steps — each
/// step printed with its style, how long it took and what it found, then a short summary.
struct HealthDemo: Sendable {
    let output: any DemoOutput
    let location: DataLocation

    /// The demo's "now" (2026-11-20 09:00 UTC): the generated year ends here, so every run prints the same.
    static let now = ExampleContext.fixedNow
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
    static let seed: UInt64 = 2026

    func run() async -> Bool {
        let trace = DemoTrace(output: output)
        switch location {
        case .inMemory:
            output.line(
                "HealthFlow demo — the embedded in-memory store, a generated year of data, no server, no setup")
        case .directory(let directory, _):
            output.line("HealthFlow demo — the embedded durable store in \(directory), no server, no setup")
        }
        output.line(DemoTrace.legend + "\n")
        let opened: DemoStore
        do throws(DemoStore.Failure) {
            opened = try await DemoStore.open(location, trace: trace, log: output.line)
        } catch {
            for line in error.lines { output.line(line) }
            return false
        }
        defer { opened.close() }
        let store = opened.store

        await trace.step("callback", "authorize: share height and body mass; read steps, heart rate, sleep, activity") {
            try await withCheckedThrowingContinuation { continuation in
                store.requestAuthorization(
                    toShare: [.height, .bodyMass],
                    read: [
                        .height, .bodyMass, .stepCount, .heartRate, .sleepAnalysis, .activeEnergyBurned,
                        .activitySummary,
                    ]
                ) { success, error in
                    if success {
                        continuation.resume(returning: "the sheet was answered (success says nothing about the answer)")
                    } else {
                        continuation.resume(throwing: error ?? DemoFailure.noAnswer)
                    }
                }
            }
        }
        let window = await DemoWindow.find(in: store, calendar: Self.calendar, fixedNow: Self.now)
        if let note = window.note { output.line(note) }
        let context = ExampleContext(store: store, source: ExampleContext.app.source, now: window.now)
        let today = Self.calendar.startOfDay(for: window.now)
        await trace.step("promise", "check status: request, then verify that sharing height is allowed") {
            try await firstly { store.availableType(.height) }.map {
                "height: \(store.authorizationStatus(for: .height))"
            }.value
        }
        let write = "write: 172 cm → a height sample in metres → save"
        if window.importedUntil != nil {
            trace.record("async", write, elapsed: .zero, "skipped: the demo writes nothing into an imported export")
        } else {
            await trace.step("async", write) {
                let sample = try heightSample(centimetres: 172, in: context)
                try await store.save(.quantity(sample))
                return "saved \(sample.quantity)"
            }
        }
        await trace.step("promise", "fetch: the three latest body-mass samples, newest first") {
            try await firstly { store.samples(of: .bodyMass, sortedBy: [.endDate(ascending: false)], limit: 3) }
                .map { samples in
                    let masses = samples.compactMap { sample -> String? in
                        guard case .quantity(let mass) = sample else { return nil }
                        return "\(formatted(mass.quantity, .gramUnit(with: .kilo), "kg")) (\(formatDay(mass.endDate)))"
                    }
                    return masses.isEmpty ? "no body-mass samples in the store" : masses.joined(separator: ", ")
                }.value
        }
        await trace.step("async", "statistics: daily step totals for the last 7 days (a statistics collection)") {
            let weekAgo = Self.calendar.date(byAdding: .day, value: -7, to: today) ?? today
            let collection = try await store.statisticsCollection(
                of: .stepCount, matching: .samples(withStart: weekAgo, end: today), options: .cumulativeSum,
                anchorDate: today, intervalComponents: DateComponents(day: 1), calendar: Self.calendar)
            let totals = collection.statistics().map {
                ($0.sumQuantity().flatMap { try? $0.doubleValue(for: .count()) }) ?? 0
            }
            let mean = totals.isEmpty ? 0 : totals.reduce(0, +) / Double(totals.count)
            return totals.map { grouped(rounding: $0) }.joined(separator: " · ")
                + "  (mean \(grouped(rounding: mean)))"
        }
        await trace.step("callback", "statistics: average heart rate over the last 30 days (a statistics query)") {
            let monthAgo = Self.calendar.date(byAdding: .day, value: -30, to: today) ?? today
            return try await withCheckedThrowingContinuation { continuation in
                store.execute(
                    HealthStatisticsQuery(
                        quantityType: .heartRate, quantitySamplePredicate: .samples(withStart: monthAgo, end: today),
                        options: [.discreteAverage, .discreteMin, .discreteMax]
                    ) { _, statistics, error in
                        guard let statistics, error == nil else {
                            return continuation.resume(throwing: error ?? DemoFailure.noData)
                        }
                        let bpm = HealthUnit.count().unitDivided(by: .minute())
                        continuation.resume(
                            returning: "average \(formatted(statistics.averageQuantity(), bpm, "bpm")), "
                                + "range \(formatted(statistics.minimumQuantity(), bpm, "")) – "
                                + "\(formatted(statistics.maximumQuantity(), bpm, "bpm"))")
                    })
            }
        }
        await trace.step("promise", "activity rings: the last 7 days against their goals") {
            var first = Self.calendar.dateComponents(
                [.year, .month, .day], from: today.addingTimeInterval(-7 * 86_400))
            var last = Self.calendar.dateComponents([.year, .month, .day], from: today.addingTimeInterval(-86_400))
            first.calendar = Self.calendar
            last.calendar = Self.calendar
            let predicate = try ActivitySummaryPredicate(start: first, end: last)
            return try await firstly { store.activitySummaries(matching: predicate) }.map { summaries in
                func met(
                    _ value: KeyPath<ActivitySummary, HealthQuantity>, _ goal: KeyPath<ActivitySummary, HealthQuantity>
                ) -> Int {
                    summaries.filter { summary in
                        let unit = summary[keyPath: goal].unit
                        let achieved = (try? summary[keyPath: value].doubleValue(for: unit)) ?? 0
                        let target = (try? summary[keyPath: goal].doubleValue(for: unit)) ?? .infinity
                        return achieved >= target
                    }.count
                }
                return
                    "of \(summaries.count) days, goals met — move \(met(\.activeEnergyBurned, \.activeEnergyBurnedGoal)), "
                    + "exercise \(met(\.appleExerciseTime, \.exerciseTimeGoal)), stand \(met(\.appleStandHours, \.standHoursGoal))"
            }.value
        }

        let timeline = LockedState("")
        await trace.step("graph", "an operation graph: four yearly totals, at most two at a time, then one report") {
            let chain = YearlyReport.chain(store: store, endingAt: today, calendar: Self.calendar)
            let report = try await chain.run()
            timeline.withLock { $0 = chain.graph.trace.timeline }
            return report
        }
        output.line(timeline.withLock { $0 }.split(separator: "\n").map { "           \($0)" }.joined(separator: "\n"))

        let summary = trace.summary
        output.line("\n" + summary.line)
        do throws(DemoStore.Failure) {
            try opened.checkUndamaged(in: location)
        } catch {
            for line in error.lines { output.line(line) }
            return false
        }
        return summary.failed == 0
    }
}

enum DemoFailure: Error, CustomStringConvertible {
    case noData
    case noAnswer

    var description: String {
        switch self {
        case .noData: "no data came back"
        case .noAnswer: "the permission request did not complete"
        }
    }
}

/// `127,293`.
func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.reversed().enumerated() {
        if index > 0 && index % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return (value < 0 ? "-" : "") + String(result.reversed())
}

/// `value` rounded to a whole number and grouped as ``grouped(_:)`` does; a value no `Int` holds (a sum of
/// imported values as large as a `Double` allows, which can reach infinity) as Swift prints a `Double`.
func grouped(rounding value: Double) -> String {
    guard let whole = Int(exactly: value.rounded()) else { return "\(value)" }
    return grouped(whole)
}

/// A quantity in `unit`, one decimal, with a label: `72.4 kg`.
func formatted(_ quantity: HealthQuantity?, _ unit: HealthUnit, _ label: String) -> String {
    guard let quantity, let value = try? quantity.doubleValue(for: unit) else { return "—" }
    let number = String(format: "%.1f", value)
    return label.isEmpty ? number : "\(number) \(label)"
}
