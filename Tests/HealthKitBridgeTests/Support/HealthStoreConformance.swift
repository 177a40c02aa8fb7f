import FlowKit
import Foundation
import HealthFlow

/// A store-generic conformance suite: the same scripted session (authorization with hidden read denial,
/// saves and deletes, every query kind, statistics, anchored changes with deletions, activity summaries,
/// observer updates, electrocardiograms from a watch) run against any `HealthStore`. Each step records what
/// the store answered; two stores conform alike when their transcripts are equal.
final class HealthStoreConformance {
    /// One recorded answer: a label and the value (or the typed error) the store gave.
    struct Entry: Hashable, CustomStringConvertible {
        let label: String
        let value: AnyHashable

        var description: String { "\(label): \(value)" }
    }

    /// The person's answers: deny sharing dietary water and reading heart rate, allow the rest.
    static let policy = AuthorizationPolicy.deny(share: [.dietaryWater], read: [.heartRate])

    static let day = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01 00:00 UTC

    private var entries: [Entry] = []
    private var issued = 0

    /// UUIDs in a fixed sequence, so two runs make the same samples.
    private func nextUUID() -> UUID {
        issued += 1
        return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", issued))!
    }
    private let sut: StoreUnderTest
    private var store: any HealthStore { sut.store }

    init(_ sut: StoreUnderTest) {
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
        duration: TimeInterval = 0, source: HealthSource = StoreUnderTest.appSource,
        metadata: [MetadataKey: MetadataValue] = [:]
    ) throws -> HealthSample {
        let start = Self.day.addingTimeInterval(offset)
        return .quantity(
            try HealthQuantitySample(
                type: type, quantity: HealthQuantity(unit: try HealthUnit(from: unit), doubleValue: value),
                start: start, end: start.addingTimeInterval(duration), source: source, metadata: metadata,
                uuid: nextUUID()))
    }

    /// Runs the session and returns the transcript.
    static func transcript(of sut: StoreUnderTest) async throws -> [Entry] {
        let suite = HealthStoreConformance(sut)
        try await suite.authorization()
        try await suite.savesAndDeletes()
        try await suite.queries()
        try await suite.statistics()
        try await suite.anchoredChanges()
        try await suite.activityAndWatchData()
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
        try sut.ingest([try quantity(.heartRate, 60, "count/min", at: 3600, source: StoreUnderTest.watch)])
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
            try await store.save(try quantity(.height, 1, "m", at: 0, source: StoreUnderTest.watch))
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
                source: StoreUnderTest.appSource, metadata: [.wasUserEntered: 1], uuid: nextUUID()))
        await record("save blood pressure") { try await store.save(pressure) }
        await record("blood pressure readings") { try await store.samples(of: .bloodPressure) }
        await record("delete one height") { try await store.delete(heights[3]) }
        await record("delete it again") { try await store.delete(heights[3]) }
        let watchSample = try quantity(.stepCount, 99, "count", at: 60, source: StoreUnderTest.watch)
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
            try await store.samples(of: .stepCount, matching: .sources([StoreUnderTest.watch.bundleIdentifier]))
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
                intervalComponents: DateComponents(hour: 1), calendar: StoreUnderTest.calendar)
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
                try quantity(.activeEnergyBurned, 50, "kcal", at: offset, duration: 600, source: StoreUnderTest.watch))
            watch.append(
                try quantity(.appleExerciseTime, 10, "min", at: offset, duration: 600, source: StoreUnderTest.watch))
            watch.append(
                try quantity(.appleStandTime, 5, "min", at: offset, duration: 300, source: StoreUnderTest.watch))
        }
        let ecg = HealthSample.electrocardiogram(
            try HealthElectrocardiogram(
                start: Self.day.addingTimeInterval(9 * 3600), end: Self.day.addingTimeInterval(9 * 3600 + 30),
                classification: .sinusRhythm, symptomsStatus: .none,
                averageHeartRate: HealthQuantity(unit: HealthUnit.count().unitDivided(by: .minute()), doubleValue: 64),
                samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512),
                numberOfVoltageMeasurements: 15_360,
                source: StoreUnderTest.watch, uuid: nextUUID()))
        try sut.ingest(watch + [ecg])
        let first = DateComponents(calendar: StoreUnderTest.calendar, year: 2024, month: 2, day: 29)
        let last = DateComponents(calendar: StoreUnderTest.calendar, year: 2024, month: 3, day: 2)
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
}
