import CZlib
import Foundation
import HealthFlow

/// Small, realistic exports written by the tests: the Health app's header and DTD, then the elements given.
enum ExportFixtures {
    /// An app that imports.
    static let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.importer", name: "Importer", healthShareUsageDescription: "Reads.",
        healthUpdateUsageDescription: "Writes.")

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          note          CDATA "a default with > and ] inside"
        >
        ]>
        <HealthData locale="de_DE">
         <ExportDate value="2024-03-02 09:00:00 +0100"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-07-14" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeABNegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeIII" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>

        """

    static func record(
        _ type: String, unit: String? = "count", value: String = "120", source: String = "Zoë’s iPhone",
        start: String = "2024-03-01 10:00:00 +0100", end: String = "2024-03-01 10:05:00 +0100",
        children: String = ""
    ) -> String {
        let unitText = unit.map { " unit=\"\($0)\"" } ?? ""
        let attributes =
            "type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"\(source)\" sourceVersion=\"17.2\"\(unitText)"
            + " creationDate=\"\(end)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\""
        return children.isEmpty ? " <Record \(attributes)/>\n" : " <Record \(attributes)>\n\(children) </Record>\n"
    }

    static let bloodPressureMembers =
        record(
            "BloodPressureSystolic", unit: "mmHg", value: "118", start: "2024-03-01 08:00:00 +0100",
            end: "2024-03-01 08:00:00 +0100")
        + record(
            "BloodPressureDiastolic", unit: "mmHg", value: "76", start: "2024-03-01 08:00:00 +0100",
            end: "2024-03-01 08:00:00 +0100")

    static let bloodPressure = """
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Zoë’s iPhone" sourceVersion="17.2" creationDate="2024-03-01 08:00:00 +0100" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:00:00 +0100">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
        \(bloodPressureMembers) </Correlation>

        """

    static let workout = """
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Apple Watch von Zoë" sourceVersion="10.2" creationDate="2024-03-01 18:31:00 +0100" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-01 18:10:00 +0100" duration="1" durationUnit="min"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100" sum="310.5" unit="kcal"/>
          <WorkoutActivity uuid="8E1B" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100" duration="30" durationUnit="min">
           <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100" average="151" minimum="98" maximum="176" unit="count/min"/>
          </WorkoutActivity>
          <WorkoutRoute sourceName="Apple Watch von Zoë" sourceVersion="10.2" creationDate="2024-03-01 18:31:00 +0100" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100">
           <FileReference path="/workout-routes/route_2024-03-01_6.30pm.gpx"/>
          </WorkoutRoute>
         </Workout>

        """

    static let activitySummary = """
         <ActivitySummary dateComponents="2024-03-01" activeEnergyBurned="432.5" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="34" appleExerciseTimeGoal="30" appleStandHours="11" appleStandHoursGoal="12"/>

        """

    /// The route `workout` names, as the Health app writes GPX: three points of the run, 17:00 to 17:29 UTC.
    static let route = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
         <metadata>
          <time>2024-03-01T17:31:00Z</time>
         </metadata>
         <trk>
          <name>Route 2024-03-01 6:30pm</name>
          <trkseg>
           <trkpt lon="13.376367" lat="52.518950"><ele>38.507004</ele><time>2024-03-01T17:00:01Z</time><extensions><speed>2.614283</speed><course>-1.000000</course><hAcc>4.621223</hAcc><vAcc>3.211929</vAcc></extensions></trkpt>
           <trkpt lon="13.377012" lat="52.519330"><ele>38.9</ele><time>2024-03-01T17:15:00.500Z</time><extensions><speed>2.8</speed><course>47.25</course><hAcc>3.9</hAcc><vAcc>3.0</vAcc></extensions></trkpt>
           <trkpt lon="-0.127758" lat="-51.507351"><time>2024-03-01T18:29:00+01:00</time></trkpt>
          </trkseg>
         </trk>
        </gpx>

        """

    /// Writes ``route`` where `workout`'s `FileReference` points, under the export folder `directory`.
    static func writeRoute(_ text: String = route, in directory: URL) throws {
        let folder = directory.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("route_2024-03-01_6.30pm.gpx"))
    }

    static func export(_ body: String) -> String {
        header + body + "</HealthData>\n"
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("HealthExportTests-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, named name: String = "export.xml", in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}

/// A minimal zip writer for the tests: stored or raw-deflated entries, optionally with ZIP64 records.
struct TestZipWriter {
    enum Method: Equatable {
        case stored, deflate
        /// A method the reader does not support, written with stored bytes.
        case other(UInt16)
    }

    private(set) var data: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
    }

    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(
            &stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                CZlib.deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        deflateEnd(&stream)
        return Array(output[..<produced])
    }

    mutating func add(_ name: String, _ content: [UInt8], method: Method = .deflate, zip64: Bool = false) {
        let body = method == .deflate ? Self.deflate(content) : content
        let offset = data.count
        let nameBytes = Array(name.utf8)
        let methodCode: UInt16 =
            switch method {
            case .stored: 0
            case .deflate: 8
            case .other(let code): code
            }
        data +=
            le32(0x0403_4b50) + le16(45) + le16(0) + le16(methodCode) + le16(0) + le16(0)
            + le32(Self.crc(content)) + le32(UInt32(body.count)) + le32(UInt32(content.count))
            + le16(UInt16(nameBytes.count)) + le16(0) + nameBytes + body
        let extra =
            zip64
            ? le16(1) + le16(24) + le64(UInt64(content.count)) + le64(UInt64(body.count)) + le64(UInt64(offset)) : []
        let saturated: UInt32 = 0xFFFF_FFFF
        directory +=
            le32(0x0201_4b50) + le16(45) + le16(45) + le16(0) + le16(methodCode) + le16(0) + le16(0)
            + le32(Self.crc(content)) + le32(zip64 ? saturated : UInt32(body.count))
            + le32(zip64 ? saturated : UInt32(content.count)) + le16(UInt16(nameBytes.count))
            + le16(UInt16(extra.count)) + le16(0) + le16(0) + le16(0) + le32(0)
            + le32(zip64 ? saturated : UInt32(offset)) + nameBytes + extra
        count += 1
    }

    func finished(zip64: Bool = false) -> [UInt8] {
        var output = data
        let directoryOffset = output.count
        output += directory
        if zip64 {
            let endOffset = output.count
            output +=
                le32(0x0606_4b50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
                + le64(UInt64(count)) + le64(UInt64(count)) + le64(UInt64(directory.count))
                + le64(UInt64(directoryOffset))
            output += le32(0x0706_4b50) + le32(0) + le64(UInt64(endOffset)) + le32(1)
            output +=
                le32(0x0605_4b50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF) + le32(0xFFFF_FFFF)
                + le32(0xFFFF_FFFF) + le16(0)
        } else {
            output +=
                le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(count)) + le16(UInt16(count))
                + le32(UInt32(directory.count)) + le32(UInt32(directoryOffset)) + le16(0)
        }
        return output
    }

    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
    private func le64(_ value: UInt64) -> [UInt8] { le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32)) }
}
