import Foundation
import Testing

/// `healthflow import` stores an export's workouts with their routes and says so; `healthflow sync` on the imported
/// store sends the workouts.
@Suite struct WorkoutImportCommandTests {
    /// `ImportCommandTests.export` (a step count, a heart rate and a heart rate in kg) with a walk that names a route.
    static let export = ImportCommandTests.export.replacingOccurrences(
        of: "</HealthData>",
        with: """
             <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" sourceName="Zoë’s Watch" startDate="2024-03-01 11:00:00 -0800" endDate="2024-03-01 11:30:00 -0800">
              <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-01 11:10:00 -0800"/>
              <WorkoutRoute sourceName="Zoë’s Watch" startDate="2024-03-01 11:00:00 -0800" endDate="2024-03-01 11:30:00 -0800">
               <FileReference path="/workout-routes/route_2024-03-01_11.30am.gpx"/>
              </WorkoutRoute>
             </Workout>
            </HealthData>
            """)

    /// The walk's route: two points, as the Health app writes GPX.
    static let route = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
         <trk><trkseg>
          <trkpt lon="-122.4194" lat="37.7749"><ele>16.2</ele><time>2024-03-01T19:00:05Z</time><extensions><speed>1.4</speed><course>90.0</course><hAcc>5.0</hAcc><vAcc>4.0</vAcc></extensions></trkpt>
          <trkpt lon="-122.4190" lat="37.7751"><ele>16.9</ele><time>2024-03-01T19:00:10Z</time><extensions><speed>1.5</speed><course>88.0</course><hAcc>5.0</hAcc><vAcc>4.0</vAcc></extensions></trkpt>
         </trkseg></trk>
        </gpx>

        """

    @Test func importStoresWorkoutsAndSyncSendsThem() async throws {
        let folder = try ImportCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: path)
        let routes = folder.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        try Data(Self.route.utf8).write(to: routes.appendingPathComponent("route_2024-03-01_11.30am.gpx"))
        let data = folder.appendingPathComponent("data").path

        let imported = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("imported 3 samples"), "\(imported.output)")
        #expect(imported.output.contains("workout"), "\(imported.output)")
        #expect(
            imported.output.contains(
                "workout routes: 1 stored with their workouts (2 locations) of 1 route files named"),
            "\(imported.output)")

        #expect(imported.output.contains("every skipped record, ECG file or route file, with its line"))

        let outbox = folder.appendingPathComponent("outbox").path
        let synced = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("sent 3 samples and 0 deletions of 3 types"), "\(synced.output)")
    }
}
