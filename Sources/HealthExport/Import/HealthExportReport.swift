import Foundation
import HealthFlow

/// A record the import left out, with the reason and where it is.
public struct HealthExportSkip: Hashable, Sendable, CustomStringConvertible {
    /// Why a record was left out.
    public enum Reason: String, CaseIterable, Hashable, Sendable, Comparable {
        /// A date that is not `YYYY-MM-DD HH:MM:SS ±HHMM`.
        case badDate
        /// A value that is not a decimal number (or not finite).
        case badNumber
        /// A unit HealthFlow's unit grammar does not parse.
        case unknownUnit
        /// A unit that does not measure what the record's type measures (`kg` for a step count).
        case unitNotForType
        /// An end date before the start date.
        case endBeforeStart
        /// A required attribute (`type`, `startDate`, `value`…) is missing.
        case missingAttribute
        /// A value the type does not allow: an unknown category value, a negative amount, metadata the type
        /// requires missing or invalid.
        case invalidValue
        /// A correlation whose members break its rules (a blood pressure without its diastolic reading).
        case invalidCorrelation
        /// An ECG CSV whose header cannot be read: text that is not UTF-8, a quote left open, a name given
        /// twice, or a file far larger than any recording.
        case badHeader
        /// An ECG CSV that ends before its first measurement, or whose zip entry is cut short or fails its
        /// CRC-32 check.
        case truncated
        /// A file the export names (a workout's route) that is not in the export.
        case missingFile
        /// A workout route file that is not GPX, has no track point, or a point without its position or time,
        /// with a bad number or timestamp, or breaking the route rules; its workout is kept without it.
        case badRoute
        /// A heart rate variability record's `HeartRateVariabilityMetadataList` without beats, or with a beat
        /// whose `bpm` or `time` is missing or unreadable, or whose time is before the record's start or not after
        /// the beat before it (the line is the beat's); the record's own sample is kept without its series.
        case badHeartbeat
        /// An element with an attribute value that is not UTF-8 (the detail names the attribute and its line):
        /// no byte of the record is guessed at.
        case notUTF8
        /// A file the export names (a workout's route) that the zip holds more than once — twice under one name,
        /// or in two folders: which one is meant cannot be told, so none is read; the workout is kept without it.
        case ambiguousFile

        /// Alphabetical, for stable reports.
        public static func < (lhs: Reason, rhs: Reason) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Why the record was left out.
    public let reason: Reason
    /// The 1-based line of the record's start tag in export.xml, or the line of an ECG CSV.
    public let line: Int
    /// The element and, when known, its type; for an ECG CSV, its path in the export
    /// (`electrocardiograms/ecg_2020-02-05.csv`).
    public let element: String
    /// What was wrong, naming the value.
    public let detail: String

    /// `line N: element: reason: detail`.
    public var description: String { "line \(line): \(element): \(reason.rawValue): \(detail)" }
}

/// What an import did: counts per type, per skip reason, what the model could not hold, and the values that
/// are not samples (activity summaries, characteristics).
public struct HealthExportReport: Sendable {
    /// Samples written, per type identifier (a correlation counts once; its members are not counted again).
    public internal(set) var imported: [String: Int] = [:]
    /// Records whose identity the store already held before this import (a re-import adds nothing).
    public internal(set) var alreadyInStore = 0
    /// Records that repeat an earlier record of this export exactly (same identity), in the same batch or any
    /// earlier one: kept once. (Into a store whose anchored queries fail, a repeat in an earlier batch is counted
    /// in ``alreadyInStore``.)
    public internal(set) var repeatedInExport = 0
    /// Top-level records that are also members of a correlation: stored once, inside the correlation.
    public internal(set) var correlationMembersMerged = 0
    /// Top-level records of correlation member types (blood pressure, nutrition) read before the import stopped
    /// with an error and not written: whether a correlation later in the file holds them cannot be known, and one
    /// stored alone would keep that correlation out on the next run. Running the import again on the complete
    /// export adds them. Always 0 in the report of an import that succeeded.
    public internal(set) var heldMembersNotWritten = 0
    /// Skipped records per reason.
    public internal(set) var skipped: [HealthExportSkip.Reason: Int] = [:]
    /// The first ``skipListLimit`` skips with their lines (all of them go to the skip report file, if any).
    public internal(set) var skips: [HealthExportSkip] = []
    /// Records of types HealthFlow's catalog does not hold, per type name: counted, not stored.
    public internal(set) var unknownTypes: [String: Int] = [:]
    /// Elements and attributes the import does not map, per name (`ClinicalRecord`,
    /// `Me@HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse`).
    /// A heart rate variability record's `HeartRateVariabilityMetadataList` is mapped (a heartbeat series); one
    /// in a record of another type is counted here as `Record>HeartRateVariabilityMetadataList`.
    public internal(set) var unmappedElements: [String: Int] = [:]
    /// Voltage measurements stored with the imported ECGs.
    public internal(set) var voltageMeasurements = 0
    /// ECGs stored without their voltage measurements: the store keeps none (it is not an
    /// ``ElectrocardiogramIngesting`` store).
    public internal(set) var electrocardiogramsWithoutVoltages = 0
    /// Route files (`WorkoutRoute` `FileReference`s) the imported workouts name; their paths are also kept in each
    /// workout's ``MetadataKey/exportWorkoutRoutes``.
    public internal(set) var workoutRouteFiles = 0
    /// Routes read from those files and stored with their workouts.
    public internal(set) var workoutRoutes = 0
    /// Locations of the stored routes.
    public internal(set) var routeLocations = 0
    /// Routes read but not stored: the store keeps none (it is not a ``WorkoutRouteIngesting`` store).
    public internal(set) var workoutRoutesNotKept = 0
    /// Heartbeats stored with the imported heartbeat series (one series per `HeartRateVariabilityMetadataList`,
    /// counted in ``imported`` under `heartbeatSeries`).
    public internal(set) var heartbeats = 0
    /// Heartbeat series stored without their beats: the store keeps none (it is not a
    /// ``HeartbeatSeriesIngesting`` store).
    public internal(set) var heartbeatSeriesWithoutBeats = 0
    /// One summary per `ActivitySummary` day.
    public internal(set) var activitySummaries: [ActivitySummary] = []
    /// The person's characteristics from `Me`, if the export has it.
    public internal(set) var characteristics: HealthCharacteristics?
    /// The export's `ExportDate`.
    public internal(set) var exportDate: Date?
    /// Bytes of the input file read (for a zip, compressed bytes).
    public internal(set) var bytesRead: Int64 = 0
    /// The input file's size.
    public internal(set) var totalBytes: Int64 = 0
    /// Bytes of export.xml read (for a zip, after inflating): the measure of throughput.
    public internal(set) var xmlBytes: Int64 = 0
    /// Lines of export.xml read.
    public internal(set) var lines = 0
    /// Wall-clock seconds the import took.
    public internal(set) var duration: TimeInterval = 0
    /// Where every skip is listed, one a line, when the options named a file.
    public internal(set) var skipReportPath: String?

    /// How many skips ``skips`` keeps in memory.
    public static let skipListLimit = 1000

    /// Samples written in all.
    public var importedCount: Int { imported.values.reduce(0, +) }
    /// Records skipped in all.
    public var skippedCount: Int { skipped.values.reduce(0, +) }

    mutating func skip(_ skip: HealthExportSkip) {
        skipped[skip.reason, default: 0] += 1
        if skips.count < Self.skipListLimit { skips.append(skip) }
    }
}
