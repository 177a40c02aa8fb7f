import Foundation
import HealthFlow

/// A heart rate variability record's `HeartRateVariabilityMetadataList` as a heartbeat series: each list is one
/// ``HealthHeartbeatSeries`` with the record's source, dates and metadata (device, source version, UTC offset,
/// creation date, `MetadataEntry`s), and one ``HealthHeartbeat`` per `InstantaneousBeatsPerMinute`:
///
/// ```xml
/// <HeartRateVariabilityMetadataList>
///   <InstantaneousBeatsPerMinute bpm="64" time="7:42:11.83 AM"/>
/// ```
///
/// - `time` is the beat's wall-clock time of day in the record's UTC offset, in one of the forms exports write:
///   12-hour (`6:14:48.94 PM`, with a space or U+202F before `AM`/`PM`) or 24-hour (`20:14:07.68`), the
///   fraction after `.` or `,`. A beat's time since the series' start counts from the record's `startDate`; a
///   time more than 12 hours earlier than the one before it is the next day (a list crossing midnight), a time
///   less than 12 hours earlier — or equal — is out of order.
/// - `bpm` must be a finite positive number. It is checked and is part of the series' identity but not kept: a
///   HealthKit heartbeat series holds beat times only (the rate is 60 over the interval to the beat before).
/// - `precededByGap` is always `false`: the export writes no gap flag, so a gap in the sensor's contact cannot be
///   told from a slow beat.
///
/// A malformed beat (a `bpm` or `time` missing or unreadable, a time before the record's start or out of order)
/// makes the whole list a ``HealthExportSkip/Reason/badHeartbeat`` skip naming the beat's line; the record's
/// own sample is kept.
enum HeartbeatList {
    /// The list element's name.
    static let elementName: StaticString = "HeartRateVariabilityMetadataList"
    /// The beat element's name.
    static let beatName: StaticString = "InstantaneousBeatsPerMinute"

    /// Why a list cannot become a series: the line of the beat (or of the list) and what is wrong.
    struct Problem: Error {
        let line: Int
        let detail: String
    }

    /// The series of `list`, a child of the record `element` that became `sample`.
    ///
    /// - Parameters:
    ///   - list: The `HeartRateVariabilityMetadataList`.
    ///   - index: Its position among the record's lists (part of its identity).
    ///   - sample: The record's sample, whose source, dates and metadata the series takes.
    ///   - start: The record's `startDate` as written (its UTC offset places the beats' times).
    ///   - identity: The record's identity fields (``ExportMapper/identity(of:typeAttribute:start:end:)``).
    /// - Throws: ``Problem`` for a list without beats or with a malformed beat.
    /// - Complexity: O(n) in the beats.
    static func recording(
        from list: ExportElement, index: Int, of sample: HealthSample, start: ExportDate, identity: ContentIdentity
    ) throws(Problem) -> HeartbeatSeriesRecording {
        var identity = identity
        identity.add(HealthObjectType.heartbeatSeries.healthKitIdentifier)
        identity.add(String(index))
        let local = start.date.timeIntervalSince1970 + Double(start.utcOffset)
        // Seconds since local midnight at which the record starts: beats are times of day.
        let startTimeOfDay = local - (local / 86_400).rounded(.down) * 86_400
        var previous = startTimeOfDay
        var day = 0.0
        var beats: [HealthHeartbeat] = []
        beats.reserveCapacity(list.children.count)
        for beat in list.children where beat.isNamed(beatName) {
            guard let bpmText = beat["bpm"], let timeText = beat["time"] else {
                throw Problem(line: beat.line, detail: "a beat without its bpm or time attribute")
            }
            guard let bpm = try? ExportMapper.number(bpmText, "bpm"), bpm > 0 else {
                throw Problem(line: beat.line, detail: "bpm \"\(bpmText)\" is not a positive number")
            }
            guard let timeOfDay = Self.timeOfDay(timeText) else {
                throw Problem(line: beat.line, detail: "time \"\(timeText)\" is not a time of day")
            }
            var time = day * 86_400 + timeOfDay
            if time < previous, previous - time > 43_200 {
                day += 1
                time += 86_400
            }
            guard time > previous || (beats.isEmpty && time == previous) else {
                throw Problem(
                    line: beat.line,
                    detail: beats.isEmpty
                        ? "time \"\(timeText)\" is before the record's start"
                        : "time \"\(timeText)\" is not after the beat before it")
            }
            previous = time
            identity.add(key: bpmText, value: timeText)
            beats.append(HealthHeartbeat(timeSinceSeriesStart: time - startTimeOfDay, precededByGap: false))
        }
        guard !beats.isEmpty else { throw Problem(line: list.line, detail: "a list without beats") }
        do throws(ValidationError) {
            let series = try HealthHeartbeatSeries(
                start: sample.startDate, end: sample.endDate, count: beats.count, source: sample.source,
                metadata: sample.metadata, uuid: identity.uuid)
            return try HeartbeatSeriesRecording(series: series, heartbeats: beats)
        } catch {
            throw Problem(line: list.line, detail: error.description)
        }
    }

    /// Seconds since midnight of a beat's `time`: `H:MM:SS[.f]` or `HH:MM:SS[,f]` (24-hour, hour 0–23), or the
    /// same followed by a space or U+202F and `AM`/`PM` (12-hour, hour 1–12; 12 AM is midnight); `nil` for
    /// anything else.
    static func timeOfDay(_ text: String) -> Double? {
        var scalars = Array(text.unicodeScalars)
        var meridiem: Int?
        if scalars.count > 3, let last = scalars.last, last == "M" || last == "m" {
            let letter = scalars[scalars.count - 2]
            let space = scalars[scalars.count - 3]
            guard space == " " || space == "\u{202F}" || space == "\u{00A0}" else { return nil }
            switch letter {
            case "A", "a": meridiem = 0
            case "P", "p": meridiem = 12
            default: return nil
            }
            scalars.removeLast(3)
        }
        let parts = String(String.UnicodeScalarView(scalars)).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60
        else { return nil }
        let secondParts = parts[2].split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
        guard (1...2).contains(secondParts.count), secondParts[0].count == 2,
            secondParts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let second = Int(secondParts[0]), second < 60
        else { return nil }
        var fraction = 0.0
        if secondParts.count == 2 {
            let digits = secondParts[1]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(digits)
            else { return nil }
            fraction = Double(value) / pow(10, Double(digits.count))
        }
        let hourOfDay: Int
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hourOfDay = hour % 12 + meridiem
        } else {
            guard hour < 24 else { return nil }
            hourOfDay = hour
        }
        return Double(hourOfDay * 3600 + minute * 60 + second) + fraction
    }
}
