import FlowKit
import Foundation
import HealthFlow

/// A store-generic conformance suite over HealthFlow's public API alone: the same scripted session
/// (authorization with hidden read denial, saves and deletes with their refusals, every query kind,
/// statistics, anchored changes with deletions, activity summaries, observer updates, a query's lifecycle,
/// electrocardiograms from a watch) run against any `HealthStore`. Each step records what the store answered;
/// stores conform alike when their transcripts are equal, and ``ruleViolations(in:)`` checks a transcript
/// against HealthKit's rules.
public final class HealthStoreConformance {
    /// One recorded answer: a label and the value (or the typed error) the store gave.
    public struct Entry: Hashable, CustomStringConvertible {
        /// What was asked.
        public let label: String
        /// What the store answered.
        public let value: AnyHashable

        /// `label: value`, for failure messages.
        public var description: String { "\(label): \(value)" }
    }

    /// The person's answers the session expects: deny sharing dietary water and reading heart rate, allow the
    /// rest.
    public static let policy = AuthorizationPolicy.deny(share: [.dietaryWater], read: [.heartRate])

    /// The other device whose samples the session ingests.
    public static let watch = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Apple Watch")

    /// The calendar of the session's collections and summaries (Gregorian, UTC).
    public static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static let day = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01 00:00 UTC

    private var entries: [Entry] = []
    private var issued = 0

    /// UUIDs in a fixed sequence, so two runs make the same samples.
    private func nextUUID() -> UUID {
        issued += 1
        return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", issued))!
    }
    private let sut: ConformanceSubject
    private var store: any HealthStore { sut.store }

    private init(_ sut: ConformanceSubject) {
        self.sut = sut
    }

    private func record(_ label: String, _ value: some Hashable) {
        entries.append(Entry(label: label, value: AnyHashable(value)))
    }

    private func record(_ label: String, _ body: () async throws -> some Hashable) async {
        do {
            record(label, try await body())
        } catch let error as HealthStoreError {
            record(label, error)
        } catch {
            record(label, "untyped error: \(error)")
        }
    }

    private func record(_ label: String, _ body: () async throws -> Void) async {
        await record(label) { () async throws -> String in
            try await body()
            return "ok"
        }
    }

    private func quantity(
        _ type: HealthObjectType, _ value: Double, _ unit: String, at offset: TimeInterval,
        duration: TimeInterval = 0, source: HealthSource? = nil,
        metadata: [MetadataKey: MetadataValue] = [:]
    ) throws -> HealthSample {
        let start = Self.day.addingTimeInterval(offset)
        return .quantity(
            try HealthQuantitySample(
                type: type, quantity: HealthQuantity(unit: try HealthUnit(from: unit), doubleValue: value),
                start: start, end: start.addingTimeInterval(duration), source: source ?? sut.app.source,
                metadata: metadata,
                uuid: nextUUID()))
    }

    /// Runs the session against a store answering with ``policy``, and returns the transcript.
    public static func transcript(of sut: ConformanceSubject) async throws -> [Entry] {
        let suite = HealthStoreConformance(sut)
        try await suite.authorization()
        try await suite.savesAndDeletes()
        try await suite.queries()
        try await suite.statistics()
        try await suite.anchoredChanges()
        try await suite.activityAndWatchData()
        try await suite.lifecycle()
        return suite.entries
    }

    private func authorization() async throws {
        record("status before", store.authorizationStatus(for: .height))
        await record("request status before") {
            try await store.statusForAuthorizationRequest(toShare: [.height], read: [.height])
        }
        await record("empty request") { try await store.requestAuthorization(toShare: [], read: []) }
        await record("share read-only appleExerciseTime") {
            try await store.requestAuthorization(toShare: [.appleExerciseTime], read: [])
        }
        await record("authorize bloodPressure correlation") {
            try await store.requestAuthorization(toShare: [], read: [.bloodPressure])
        }
        await record("request") {
            try await store.requestAuthorization(
                toShare: [.height, .stepCount, .bodyMass, .bloodPressureSystolic, .insulinDelivery, .dietaryWater],
                read: [
                    .height, .stepCount, .bodyMass, .heartRate, .activeEnergyBurned, .appleExerciseTime,
                    .appleStandTime, .activitySummary, .electrocardiogram, .dietaryWater,
                ])
        }
        for type in [HealthObjectType.height, .bloodPressureDiastolic, .dietaryWater, .heartRate] {
            record("status \(type)", store.authorizationStatus(for: type))
        }
        await record("request status after") {
            try await store.statusForAuthorizationRequest(toShare: [.height], read: [.height])
        }
        // Hidden read denial: the watch's heart rate exists but reads as nothing.
        try sut.ingest([try quantity(.heartRate, 60, "count/min", at: 3600, source: Self.watch)])
        await record("heart rate (read denied)") { try await store.samples(of: .heartRate) }
    }

    private func savesAndDeletes() async throws {
        let heights = try (0..<4).map { try quantity(.height, 170 + Double($0), "cm", at: Double($0) * 3600) }
        await record("save heights") { try await store.save(heights) }
        await record("save again (duplicate in batch)") { try await store.save([heights[0], heights[0]]) }
        await record("save denied type") { try await store.save(try quantity(.dietaryWater, 250, "mL", at: 0)) }
        await record("save never-requested type") {
            try await store.save(try quantity(.distanceWalkingRunning, 5, "km", at: 0))
        }
        await record("save other source") {
            try await store.save(try quantity(.height, 1, "m", at: 0, source: Self.watch))
        }
        let insulin = try quantity(
            .insulinDelivery, 4, "IU", at: 7200,
            metadata: [.insulinDeliveryReason: InsulinDeliveryReason.bolus.metadataValue])
        await record("save insulin with reason") { try await store.save(insulin) }
        let members: Set<HealthQuantitySample> = try [
            (HealthObjectType.bloodPressureSystolic, 120.0), (.bloodPressureDiastolic, 80),
        ].map { type, value in
            guard case .quantity(let member) = try quantity(type, value, "mmHg", at: 0) else {
                throw CancellationError()
            }
            return member
        }.reduce(into: []) { $0.insert($1) }
        let pressure = HealthSample.correlation(
            try HealthCorrelation(
                type: .bloodPressure, start: Self.day, end: Self.day, objects: members,
                source: sut.app.source, metadata: [.wasUserEntered: 1], uuid: nextUUID()))
        await record("save blood pressure") { try await store.save(pressure) }
        await record("blood pressure readings") { try await store.samples(of: .bloodPressure) }
        await record("delete one height") { try await store.delete(heights[3]) }
        await record("delete it again") { try await store.delete(heights[3]) }
        let watchSample = try quantity(.stepCount, 99, "count", at: 60, source: Self.watch)
        try sut.ingest([watchSample])
        await record("delete the watch's steps") { try await store.delete(watchSample) }
        await record("heights after delete") {
            try await store.samples(of: .height, sortedBy: [.startDate(ascending: true)])
        }
        await record("insulin") { try await store.samples(of: .insulinDelivery) }
    }

    private func queries() async throws {
        let start = Self.day.addingTimeInterval(3600)
        let end = Self.day.addingTimeInterval(3 * 3600)
        await record("heights in range, newest first") {
            try await store.samples(
                of: .height, matching: .samples(withStart: start, end: end), sortedBy: [.startDate(ascending: false)])
        }
        await record("heights strictly in range, limit 1") {
            try await store.samples(
                of: .height,
                matching: .samples(withStart: start, end: end, options: [.strictStartDate, .strictEndDate]),
                sortedBy: [.endDate(ascending: true)], limit: 1)
        }
        await record("insulin by metadata") {
            try await store.samples(
                of: .insulinDelivery,
                matching: .metadata(.insulinDeliveryReason, equals: InsulinDeliveryReason.bolus.metadataValue))
        }
        let heights = try await store.samples(of: .height, sortedBy: [.startDate(ascending: true)])
        await record("height by uuid") {
            try await store.samples(of: .height, matching: .uuids([heights[1].uuid]))
        }
        await record("steps from the watch only") {
            try await store.samples(of: .stepCount, matching: .sources([Self.watch.bundleIdentifier]))
        }
        await record("negative limit") { try await store.samples(of: .height, limit: -1) }
        await record("query activity summary type as samples") { try await store.samples(of: .activitySummary) }
        let again = Promise<HealthStoreError?>.pending()
        let reused = HealthSampleQuery(sampleType: .height) { _, samples, error in
            if samples == nil { again.resolver.fulfill(error as? HealthStoreError) }
        }
        store.execute(reused)
        store.execute(reused)
        await record("execute a query twice") { try await again.promise.value }
    }

    private func statistics() async throws {
        let steps = try (0..<6).map {
            try quantity(.stepCount, 100 * Double($0 + 1), "count", at: 3300 + Double($0) * 1800, duration: 600)
        }
        await record("save steps") { try await store.save(steps) }
        let today = SamplePredicate.samples(withStart: Self.day, end: Self.day.addingTimeInterval(86_400))
        await record("step sum by source") {
            try await store.statistics(of: .stepCount, matching: today, options: [.cumulativeSum, .separateBySource])
        }
        await record("height average/min/max/most recent") {
            try await store.statistics(
                of: .height, options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration])
        }
        await record("sum of heights (illegal)") { try await store.statistics(of: .height, options: .cumulativeSum) }
        await record("average of steps (illegal)") {
            try await store.statistics(of: .stepCount, options: .discreteAverage)
        }
        await record("hourly steps") {
            let collection = try await store.statisticsCollection(
                of: .stepCount, options: .cumulativeSum, anchorDate: Self.day,
                intervalComponents: DateComponents(hour: 1), calendar: Self.calendar)
            return collection.statistics()
        }
    }

    private func anchoredChanges() async throws {
        let first = try await store.changes(of: .bodyMass, since: nil)
        record("first changes", [first.samples.count, first.deletedObjects.count])
        let masses = try (0..<3).map { try quantity(.bodyMass, 70 + Double($0), "kg", at: Double($0) * 60) }
        try await store.save(masses)
        let second = try await store.changes(of: .bodyMass, since: first.newAnchor)
        record("after saving three", second.samples)
        try await store.delete(masses[1])
        let third = try await store.changes(of: .bodyMass, since: second.newAnchor)
        record("after deleting one", [AnyHashable(third.samples), AnyHashable(third.deletedObjects.map(\.uuid))])
        record("tombstone names the deleted sample", third.deletedObjects.map(\.uuid) == [masses[1].uuid])
        let limited = try await store.changes(of: .bodyMass, since: first.newAnchor, limit: 2)
        record("limit counts samples and deletions", limited.samples.count + limited.deletedObjects.count)
    }

    private func activityAndWatchData() async throws {
        var watch: [HealthSample] = []
        for hour in 8..<12 {
            let offset = Double(hour) * 3600
            watch.append(
                try quantity(.activeEnergyBurned, 50, "kcal", at: offset, duration: 600, source: Self.watch))
            watch.append(
                try quantity(.appleExerciseTime, 10, "min", at: offset, duration: 600, source: Self.watch))
            watch.append(
                try quantity(.appleStandTime, 5, "min", at: offset, duration: 300, source: Self.watch))
        }
        let ecg = HealthSample.electrocardiogram(
            try HealthElectrocardiogram(
                start: Self.day.addingTimeInterval(9 * 3600), end: Self.day.addingTimeInterval(9 * 3600 + 30),
                classification: .sinusRhythm, symptomsStatus: .none,
                averageHeartRate: HealthQuantity(unit: HealthUnit.count().unitDivided(by: .minute()), doubleValue: 64),
                samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512),
                numberOfVoltageMeasurements: 15_360,
                source: Self.watch, uuid: nextUUID()))
        try sut.ingest(watch + [ecg])
        let first = DateComponents(calendar: Self.calendar, year: 2024, month: 2, day: 29)
        let last = DateComponents(calendar: Self.calendar, year: 2024, month: 3, day: 2)
        await record("activity summaries") {
            try await store.activitySummaries(matching: try ActivitySummaryPredicate(start: first, end: last))
        }
        await record("electrocardiograms") { try await store.samples(of: .electrocardiogram) }
        await record("save an electrocardiogram (read-only)") { try await store.save(ecg) }
        // Observer: the initial update, then one per matching change.
        var updates = store.observe(.bodyMass).makeAsyncIterator()
        record("observer initial", try await updates.next()?.isInitial)
        try await store.save(try quantity(.bodyMass, 72, "kg", at: 7200))
        record("observer after save", try await updates.next()?.index)
    }

    /// A query's lifecycle: handlers called once, stopping after finishing changes nothing, a stopped observer
    /// hears of no more changes.
    private func lifecycle() async throws {
        let calls = Counter()
        let delivered = Promise<Void>.pending()
        let query = HealthSampleQuery(sampleType: .height) { _, _, _ in
            calls.increment()
            delivered.resolver.fulfill(())
        }
        store.execute(query)
        try await delivered.promise.value
        store.stop(query)
        _ = try await store.samples(of: .height)
        record("sample query handler calls", calls.value)
        record("stop after finish leaves the query finished", query.isStopped)

        let updates = Counter()
        let started = Promise<Void>.pending()
        let observer = HealthObserverQuery(sampleType: .bodyMass) { _, completion, _ in
            updates.increment()
            completion()
            started.resolver.fulfill(())
        }
        store.execute(observer)
        try await started.promise.value
        store.stop(observer)
        try await store.save(try quantity(.bodyMass, 73, "kg", at: 9000))
        _ = try await store.samples(of: .bodyMass)
        record("stopped observer updates", updates.value)
        record("stopped observer is stopped", observer.isStopped)
    }

    /// Checks a transcript against HealthKit's rules; an empty result means it follows them.
    /// - Returns: One line per entry that breaks a rule.
    public static func ruleViolations(in entries: [Entry]) -> [String] {
        var violations: [String] = []
        func value(_ label: String) -> AnyHashable? { entries.first { $0.label == label }?.value }
        func expect(_ label: String, _ expected: some Hashable) {
            let actual = value(label)
            if actual != AnyHashable(expected) {
                violations.append("\(label): expected \(expected), got \(actual.map { "\($0)" } ?? "nothing")")
            }
        }
        func expect(_ label: String, _ holds: Bool, _ rule: String) {
            if !holds { violations.append("\(label): \(rule), got \(value(label).map { "\($0)" } ?? "nothing")") }
        }
        expect("share read-only appleExerciseTime", HealthStoreError.typeNotShareable(.appleExerciseTime))
        expect("authorize bloodPressure correlation", HealthStoreError.correlationTypeNotAuthorizable(.bloodPressure))
        expect("empty request", HealthStoreError.emptyAuthorizationRequest)
        expect("status dietaryWater", AuthorizationStatus.sharingDenied)
        expect("status heartRate", AuthorizationStatus.notDetermined)
        expect("status bloodPressureDiastolic", AuthorizationStatus.sharingAuthorized)
        expect("heart rate (read denied)", [HealthSample]())
        expect("save denied type", HealthStoreError.authorizationDenied(.dietaryWater))
        expect("save never-requested type", HealthStoreError.authorizationNotDetermined(.distanceWalkingRunning))
        expect("save an electrocardiogram (read-only)", HealthStoreError.typeNotShareable(.electrocardiogram))
        expect(
            "sum of heights (illegal)",
            value("sum of heights (illegal)").map { "\($0)".contains("cumulativeSum") } == true,
            "statistics options must suit the type")
        expect("tombstone names the deleted sample", true)
        expect("limit counts samples and deletions", 2)
        expect("observer initial", Optional(true))
        expect("observer after save", Optional(1))
        expect(
            "execute a query twice", Optional(HealthStoreError.queryAlreadyExecuted(query: "HealthSampleQuery(height)"))
        )
        expect("negative limit", HealthStoreError.invalidLimit(-1))
        expect("sample query handler calls", 1)
        expect("stop after finish leaves the query finished", false)
        expect("stopped observer updates", 1)
        expect("stopped observer is stopped", true)
        let summaries = value("activity summaries")?.base as? [ActivitySummary]
        expect(
            "activity summaries", summaries?.map(\.dateString) == ["2024-02-29", "2024-03-01", "2024-03-02"],
            "one summary per day asked for, ascending")
        let march1 = summaries?.first { $0.dateString == "2024-03-01" }
        expect(
            "activity summaries",
            march1?.activeEnergyBurned == HealthQuantity(unit: .kilocalorie(), doubleValue: 200)
                && march1?.appleExerciseTime == HealthQuantity(unit: .minute(), doubleValue: 40),
            "summaries add up the watch's energy and exercise")
        let hourly = value("hourly steps")?.base as? [HealthStatistics]
        let hourlyTotal = hourly?.compactMap { $0.sumQuantity()?.value }.reduce(0, +) ?? 0
        expect(
            "hourly steps", (hourly?.count ?? 0) > 1 && abs(hourlyTotal - 2_199) < 1e-6,
            "hourly sums of the app's 2,100 steps and the watch's 99")
        let sum = value("step sum by source")?.base as? HealthStatistics
        expect(
            "step sum by source",
            abs((sum?.sumQuantity()?.value ?? 0) - 2_199) < 1e-6 && sum?.sumQuantity(for: watch)?.value == 99,
            "a sum over both sources, and the watch's part")
        expect(
            "electrocardiograms", (value("electrocardiograms")?.base as? [HealthSample])?.count == 1,
            "the watch's electrocardiogram is readable")
        return violations
    }
}

/// A store the conformance session runs against: the store, its app, and the hook that puts other apps' data
/// (a watch's samples) into the database behind it.
public struct ConformanceSubject: Sendable {
    /// The store's name, for messages.
    public let name: String
    /// The store, answering authorization requests with ``HealthStoreConformance/policy``.
    public let store: any HealthStore
    /// The app the store belongs to.
    public let app: HealthAppConfiguration
    /// Adds samples from another source, bypassing the app's rules.
    public let ingest: @Sendable ([HealthSample]) throws -> Void

    /// A subject.
    public init(
        name: String, store: any HealthStore, app: HealthAppConfiguration,
        ingest: @escaping @Sendable ([HealthSample]) throws -> Void
    ) {
        self.name = name
        self.store = store
        self.app = app
        self.ingest = ingest
    }

    /// An ``InMemoryHealthStore`` for `app`: the reference the other stores are compared with.
    public static func inMemory(app: HealthAppConfiguration) -> ConformanceSubject {
        let store = InMemoryHealthStore(configuration: app, policy: HealthStoreConformance.policy)
        return ConformanceSubject(name: "InMemoryHealthStore", store: store, app: app, ingest: { try store.ingest($0) })
    }
}

/// A count several threads may increase.
final class Counter: Sendable {
    private let count = LockedState(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
