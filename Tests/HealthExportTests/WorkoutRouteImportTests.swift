import Foundation
import HealthExportTestSupport
import HealthFlow
import Testing

@testable import HealthExport

/// A workout's `WorkoutRoute` file (`workout-routes/*.gpx`, in the zip or the folder) becomes a route stored with the
/// workout; a route file that is missing or not a route is a counted, listed skip, and the workout is kept.
@Suite(.timeLimit(.minutes(10)))
struct WorkoutRouteImportTests {
    let app = ExportFixtures.app

    /// Imports `ExportFixtures.workout` from a folder holding `route` (none when `nil`).
    func importing(route: String?) async throws -> (HealthExportReport, any HealthStore) {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(ExportFixtures.workout), in: directory)
        if let route { try ExportFixtures.writeRoute(route, in: directory) }
        let store = InMemoryHealthStore(configuration: app)
        return (try await HealthExportImport(path: path).run(into: store), store)
    }

    static func workout(in store: any HealthStore) async throws -> HealthWorkout {
        guard case .workout(let workout)? = try await store.samples(of: .workout).first else {
            throw CancellationError()
        }
        return workout
    }

    @Test func aRouteFileBecomesTheWorkoutsRouteWithEveryField() async throws {
        let (report, store) = try await importing(route: ExportFixtures.route)
        #expect(report.imported == ["workout": 1])
        #expect(report.workoutRouteFiles == 1)
        #expect(report.workoutRoutes == 1)
        #expect(report.routeLocations == 3)
        #expect(report.skippedCount == 0)
        let routes = try await store.workoutRoutes(of: try await Self.workout(in: store))
        let locations = try #require(routes.first?.locations)
        #expect(locations.count == 3)
        #expect(locations[0].timestamp == Date(timeIntervalSince1970: 1_709_312_401))
        #expect(locations[0].latitude == 52.518950 && locations[0].longitude == 13.376367)
        #expect(locations[0].altitude == 38.507004)
        #expect(locations[0].speed == 2.614283 && locations[0].course == -1)
        #expect(locations[0].horizontalAccuracy == 4.621223 && locations[0].verticalAccuracy == 3.211929)
        #expect(locations[1].timestamp == Date(timeIntervalSince1970: 1_709_313_300.5), "fractional seconds")
        #expect(locations[2].timestamp == Date(timeIntervalSince1970: 1_709_314_140), "a UTC offset")
        #expect(locations[2].latitude == -51.507351 && locations[2].longitude == -0.127758)
        #expect(locations[2].altitude == 0 && locations[2].speed == -1 && locations[2].horizontalAccuracy == -1)
    }

    @Test func aRouteInTheZipIsReadFromItsEntry() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(ExportFixtures.export(ExportFixtures.workout).utf8))
        zip.add(
            "apple_health_export/workout-routes/route_2024-03-01_6.30pm.gpx", Array(ExportFixtures.route.utf8),
            method: .stored)
        let path = directory.appendingPathComponent("export.zip").path
        try Data(zip.finished()).write(to: URL(fileURLWithPath: path))
        let store = InMemoryHealthStore(configuration: app)
        let report = try await HealthExportImport(path: path).run(into: store)
        #expect(report.workoutRoutes == 1 && report.routeLocations == 3)
        #expect(try await store.workoutRoutes(of: try await Self.workout(in: store)).first?.locations.count == 3)
    }

    @Test func aStoreThatKeepsNoRoutesGetsTheWorkoutAloneAndTheReportCountsItsRoute() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(ExportFixtures.workout), in: directory)
        try ExportFixtures.writeRoute(in: directory)
        let store = IngestObservingStore(InMemoryHealthStore(configuration: app))
        let report = try await HealthExportImport(path: path).run(into: store)
        #expect(report.imported == ["workout": 1])
        #expect(report.workoutRoutesNotKept == 1)
        #expect(report.workoutRoutes == 0 && report.routeLocations == 0)
        #expect(try await store.inner.workoutRoutes(of: try await Self.workout(in: store.inner)) == [])
    }

    @Test func aMissingRouteFileIsASkipWithTheWorkoutsLineAndTheWorkoutIsKept() async throws {
        let (report, store) = try await importing(route: nil)
        #expect(report.imported == ["workout": 1])
        #expect(report.skipped == [.missingFile: 1])
        let skip = try #require(report.skips.first)
        #expect(skip.element == "Workout")
        #expect(skip.line == ExportFixtures.header.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(skip.detail.contains("/workout-routes/route_2024-03-01_6.30pm.gpx"))
        #expect(try await store.workoutRoutes(of: try await Self.workout(in: store)) == [])
    }

    @Test func aRouteFileThatIsNotARouteIsASkipWithItsLine() async throws {
        let noLatitude = ExportFixtures.route.replacingOccurrences(of: #" lat="52.519330""#, with: "")
        let (report, store) = try await importing(route: noLatitude)
        #expect(report.imported == ["workout": 1])
        #expect(report.skipped == [.badRoute: 1])
        let skip = try #require(report.skips.first)
        #expect(skip.element == "/workout-routes/route_2024-03-01_6.30pm.gpx")
        #expect(skip.line == 10)
        #expect(skip.detail == "a track point has no lat")
        #expect(try await store.workoutRoutes(of: try await Self.workout(in: store)) == [])

        for (text, detail) in [
            ("<html/>", "no <gpx> element: not a GPX file"),
            ("<gpx><trk><trkseg></trkseg></trk></gpx>", "no track point"),
            (
                ExportFixtures.route.replacingOccurrences(of: "2024-03-01T17:00:01Z", with: "yesterday"),
                "time \"yesterday\" is not an ISO 8601 timestamp"
            ),
            (
                ExportFixtures.route.replacingOccurrences(of: "<ele>38.9</ele>", with: "<ele>high</ele>"),
                "ele \"high\" is not a number"
            ),
            (String(ExportFixtures.route.prefix(720)), "a <trkpt> is not closed"),
        ] {
            #expect(throws: WorkoutRouteGPX.Problem.self, "\(detail)") { try WorkoutRouteGPX.parse(Array(text.utf8)) }
            do {
                _ = try WorkoutRouteGPX.parse(Array(text.utf8))
            } catch {
                #expect(error.detail == detail)
            }
        }
    }

    @Test func reimportingAWorkoutWithARouteAddsNothing() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(ExportFixtures.workout), in: directory)
        try ExportFixtures.writeRoute(in: directory)
        let store = try FileHealthStore(directory: directory.appendingPathComponent("store"), configuration: app)
        defer { store.close() }
        _ = try await HealthExportImport(path: path).run(into: store)
        let again = try await HealthExportImport(path: path).run(into: store)
        #expect(again.importedCount == 0 && again.alreadyInStore == 1 && again.workoutRoutes == 0)
        #expect(again.skippedCount == 0, "the stored workout holds the route: nothing is left out")
        #expect(try await store.workoutRoutes(of: try await Self.workout(in: store)).count == 1)
    }

    @Test func aRouteFileFoundLaterIsAddedToTheWorkoutStoredWithoutIt() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(ExportFixtures.workout), in: directory)
        let store = try FileHealthStore(directory: directory.appendingPathComponent("store"), configuration: app)
        defer { store.close() }
        let first = try await HealthExportImport(path: path).run(into: store)
        #expect(first.skipped == [.missingFile: 1], "export.xml alone: the route file is missing")

        try ExportFixtures.writeRoute(in: directory)
        let second = try await HealthExportImport(path: path).run(into: store)
        #expect(second.importedCount == 0 && second.alreadyInStore == 1 && second.skippedCount == 0)
        #expect(second.workoutRoutes == 1 && second.routeLocations == 3, "the route is added to the stored workout")
        #expect(try await store.workoutRoutes(of: try await Self.workout(in: store)).first?.locations.count == 3)

        let third = try await HealthExportImport(path: path).run(into: store)
        #expect(third.workoutRoutes == 0 && third.skippedCount == 0, "a route the workout holds is not added again")
        store.close()
        let reopened = try FileHealthStore(directory: directory.appendingPathComponent("store"), configuration: app)
        defer { reopened.close() }
        #expect(try await reopened.workoutRoutes(of: try await Self.workout(in: reopened)).count == 1)
    }

    /// Whether the import adds a route is decided by what the store holds, not by what the app may read: into a
    /// store where the person denied reading workouts (a denial HealthKit hides: queries answer nothing), a
    /// re-import adds no route the workout holds.
    @Test func reimportingIntoAStoreThatHidesWorkoutsFromReadingAddsNoRouteAgain() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(ExportFixtures.workout), in: directory)
        try ExportFixtures.writeRoute(in: directory)
        let hiding = AuthorizationPolicy { $0.granting(exceptRead: [.workout]) }
        let store = InMemoryHealthStore(configuration: app, policy: hiding)

        let first = try await HealthExportImport(path: path).run(into: store)
        #expect(first.importedCount == 1 && first.workoutRoutes == 1)
        let again = try await HealthExportImport(path: path).run(into: store)

        #expect(again.importedCount == 0 && again.alreadyInStore == 1)
        #expect(again.workoutRoutes == 0 && again.routeLocations == 0, "the route the workout holds is not added again")
    }

    @Test func timestampsParseInUTCWithFractionsAndOffsetsAndNothingElse() {
        #expect(WorkoutRouteGPX.timestamp("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(WorkoutRouteGPX.timestamp("2000-02-29T23:59:59.25Z") == Date(timeIntervalSince1970: 951_868_799.25))
        #expect(WorkoutRouteGPX.timestamp("2024-03-01T18:29:00+01:00") == Date(timeIntervalSince1970: 1_709_314_140))
        #expect(WorkoutRouteGPX.timestamp("1969-12-31T23:00:00-01:00") == Date(timeIntervalSince1970: 0))
        for bad in ["2024-03-01 17:00:00Z", "2024-13-01T00:00:00Z", "2024-03-01T17:00:00", "2024-03-01T17:00:00Zx"] {
            #expect(WorkoutRouteGPX.timestamp(bad) == nil, "\(bad)")
        }
    }

    /// A route file the zip holds twice — under one name, or in two folders — is not guessed at: a listed skip
    /// naming both entries, and the workout is kept without it.
    @Test func aRouteFileTheZipHoldsTwiceIsASkipNamingBoth() async throws {
        let route = "workout-routes/route_2024-03-01_6.30pm.gpx"
        for pair in [
            ["apple_health_export/" + route, "apple_health_export/" + route],
            ["apple_health_export/" + route, "other/" + route],
        ] {
            let directory = try ExportFixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            var zip = TestZipWriter()
            zip.add("apple_health_export/export.xml", Array(ExportFixtures.export(ExportFixtures.workout).utf8))
            for entry in pair { zip.add(entry, Array(ExportFixtures.route.utf8), method: .stored) }
            let path = directory.appendingPathComponent("export.zip").path
            try Data(zip.finished()).write(to: URL(fileURLWithPath: path))
            let report = try await HealthExportImport(path: path).run(into: InMemoryHealthStore(configuration: app))
            #expect(report.imported == ["workout": 1], "\(pair)")
            #expect(report.workoutRoutes == 0)
            #expect(report.skipped == [.ambiguousFile: 1])
            #expect(report.skips.first.map { pair.allSatisfy($0.detail.contains) } == true, "\(report.skips)")
        }
    }
}
