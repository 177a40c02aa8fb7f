import Foundation
import HealthFlow

extension MetadataKey {
    /// The lead an exported ECG names (`Lead I`).
    public static let exportECGLead = MetadataKey(rawValue: "HealthExportECGLead")
    /// The classification as an exported ECG words it (`Sinus Rhythm`, `Heart Rate Over 120`).
    public static let exportECGClassification = MetadataKey(rawValue: "HealthExportECGClassification")
    /// The symptoms the person entered, as an exported ECG words them.
    public static let exportECGSymptoms = MetadataKey(rawValue: "HealthExportECGSymptoms")
}

/// Reads one ECG CSV of the export (`electrocardiograms/ecg_YYYY-MM-DD*.csv`): header lines `Name,value` — Name,
/// Date of Birth, Recorded Date, Classification, Symptoms, Software Version, Device, Sample Rate, Lead, Unit,
/// with blank lines between groups and values quoted when they hold a comma (`"Watch5,4"`) — then one voltage a
/// line.
///
/// Mapping: Recorded Date (export.xml's date form) is the start, and the end is start + measurements ÷ sample
/// rate; measurement `i` lies at `i ÷ rate` seconds. Sample Rate (`512 hertz`, `512.844 Hz`) is the sampling
/// frequency; Unit (`µV`, or any voltage in HealthFlow's unit grammar, `µ`/`u` read as `mc`; µV when absent)
/// converts the values to microvolts. Classification words map to ``HealthElectrocardiogram/Classification``
/// (an unknown word gives `.notSet` and is reported); Symptoms: empty → `.notSet`, `None`/`No Symptoms` →
/// `.none`, any other text → `.present`. An `Average Heart Rate` line (`72 BPM`) becomes the average heart rate.
/// The device, software version, lead, the classification's and symptoms' words and the date's UTC offset are
/// kept as metadata; Name and Date of Birth describe the person, not the recording, and are not kept. Other
/// header names are reported as unmapped. Decimal numbers read the same in every locale; a voltage written with
/// a decimal comma (`-265,868`, as exports from such locales do) reads as `-265.868`.
///
/// The recording's UUID is derived from its content (everything but the person's name and date of birth), so a
/// re-import finds it again.
struct ElectrocardiogramCSV {
    /// Why a CSV cannot become a recording, and the 1-based line at fault.
    struct Problem: Error {
        let reason: HealthExportSkip.Reason
        let line: Int
        let detail: String
    }

    /// A recording and what its header held that the model does not map.
    struct Parsed {
        let recording: ElectrocardiogramRecording
        /// Unmapped names for the report: `ECG header <name>`, `ECG classification <word>`.
        let unmapped: [String]
    }

    /// The source of every exported ECG: the watch's ECG app (the CSV names the device, not the source).
    static let source = HealthSource.exported(name: "ECG")

    private static let classifications: [String: HealthElectrocardiogram.Classification] = [
        "sinus rhythm": .sinusRhythm,
        "high heart rate - no atrial fibrillation detected": .sinusRhythm,
        "atrial fibrillation": .atrialFibrillation,
        "atrial fibrillation - high heart rate": .atrialFibrillation,
        "heart rate under 50": .inconclusiveLowHeartRate,
        "low heart rate": .inconclusiveLowHeartRate,
        "heart rate over 120": .inconclusiveHighHeartRate,
        "heart rate over 150": .inconclusiveHighHeartRate,
        "high heart rate": .inconclusiveHighHeartRate,
        "poor recording": .inconclusivePoorReading,
        "inconclusive": .inconclusiveOther,
        "unrecognized": .unrecognized,
        "unclassified": .unrecognized,
        "": .notSet,
    ]

    /// The header names read; any other is reported as unmapped.
    private static let knownNames: Set<String> = [
        "name", "date of birth", "recorded date", "classification", "symptoms", "software version", "device",
        "sample rate", "lead", "unit", "average heart rate",
    ]

    /// Parses a whole CSV.
    /// - Throws: A ``Problem``: `.badHeader` (undecodable text, an unclosed quote, a name given twice),
    ///   `.truncated` (no measurement), `.missingAttribute` (no Recorded Date or Sample Rate), `.badDate`,
    ///   `.badNumber` (a voltage, rate or heart rate that is not a decimal number), `.unknownUnit`,
    ///   `.invalidValue` (a rate that is not positive, a recording HealthFlow's rules refuse).
    /// - Complexity: O(n) in the file's bytes.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> Parsed {
        var header: [String: (value: String, line: Int)] = [:]
        var unmapped: [String] = []
        var microvolts: [Double] = []
        var measurementsStart: Int?
        var lineNumber = 0
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count {
            lineNumber += 1
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var end = newline
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let lineStart = start
            start = newline + 1
            if let value = Self.plainNumber(bytes[lineStart..<end]) {
                if measurementsStart == nil { measurementsStart = lineStart }
                microvolts.append(value)
                continue
            }
            guard let text = String(validating: bytes[lineStart..<end], as: UTF8.self) else {
                throw Problem(reason: .badHeader, line: lineNumber, detail: "the line is not UTF-8 text")
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if let value = Self.voltage(trimmed) {
                if measurementsStart == nil { measurementsStart = lineStart }
                microvolts.append(value)
                continue
            }
            if measurementsStart != nil {
                throw Problem(reason: .badNumber, line: lineNumber, detail: "voltage \"\(trimmed)\"")
            }
            let (name, value) = try Self.headerField(trimmed, line: lineNumber)
            let key = name.lowercased()
            guard header.updateValue((value, lineNumber), forKey: key) == nil else {
                throw Problem(reason: .badHeader, line: lineNumber, detail: "\"\(name)\" is given twice")
            }
            if !knownNames.contains(key) { unmapped.append("ECG header " + name) }
        }
        guard let measurementsStart, !microvolts.isEmpty else {
            throw Problem(
                reason: .truncated, line: lineNumber, detail: "the file ends before its first voltage measurement")
        }
        return try Self.recording(
            header: header, microvolts: microvolts, body: bytes[measurementsStart...], unmapped: unmapped)
    }

    /// Builds the recording from the header and the measurements.
    private static func recording(
        header: [String: (value: String, line: Int)], microvolts: [Double], body: ArraySlice<UInt8>,
        unmapped: [String]
    ) throws(Problem) -> Parsed {
        var unmapped = unmapped
        guard let recorded = header["recorded date"] else {
            throw Problem(reason: .missingAttribute, line: 1, detail: "no Recorded Date line")
        }
        guard let date = ExportDate(recorded.value) else {
            throw Problem(reason: .badDate, line: recorded.line, detail: "Recorded Date \"\(recorded.value)\"")
        }
        guard let rateField = header["sample rate"] else {
            throw Problem(reason: .missingAttribute, line: 1, detail: "no Sample Rate line")
        }
        let rate = try Self.measure(rateField, name: "Sample Rate", units: ["", "hz", "hertz"])
        guard rate > 0 else {
            throw Problem(reason: .invalidValue, line: rateField.line, detail: "Sample Rate \"\(rateField.value)\"")
        }
        let scale = try Self.microvoltScale(header["unit"])
        var averageHeartRate: HealthQuantity?
        if let field = header["average heart rate"] {
            let rate = try Self.measure(field, name: "Average Heart Rate", units: ["", "bpm", "count/min"])
            averageHeartRate = HealthQuantity(unit: HealthUnit.count().unitDivided(by: .minute()), doubleValue: rate)
        }
        let classificationWord = header["classification"]?.value ?? ""
        let classification = classifications[classificationWord.lowercased()]
        if classification == nil { unmapped.append("ECG classification " + classificationWord) }
        let symptoms = header["symptoms"]?.value ?? ""
        let symptomsStatus: HealthElectrocardiogram.SymptomsStatus =
            switch symptoms.lowercased() {
            case "": .notSet
            case "none", "no symptoms": .none
            default: .present
            }

        var metadata: [MetadataKey: MetadataValue] = [.exportUTCOffset: .string(date.offsetText)]
        let kept: [(String, MetadataKey)] = [
            ("device", .exportDevice), ("software version", .exportSourceVersion), ("lead", .exportECGLead),
            ("classification", .exportECGClassification), ("symptoms", .exportECGSymptoms),
        ]
        for (name, key) in kept {
            if let value = header[name]?.value, !value.isEmpty { metadata[key] = .string(value) }
        }

        var identity = ContentIdentity()
        identity.add(HealthObjectType.electrocardiogram.identifier)
        for name in ["recorded date", "sample rate", "unit", "average heart rate"] + kept.map(\.0) {
            identity.add(key: name, value: header[name]?.value ?? "")
        }
        identity.add(String(decoding: body, as: UTF8.self))

        let measurements = microvolts.enumerated().map { index, value in
            ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: Double(index) / rate, microvolts: value * scale)
        }
        do throws(ValidationError) {
            let ecg = try HealthElectrocardiogram(
                start: date.date, end: date.date.addingTimeInterval(Double(microvolts.count) / rate),
                classification: classification ?? .notSet, symptomsStatus: symptomsStatus,
                averageHeartRate: averageHeartRate,
                samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: rate),
                numberOfVoltageMeasurements: measurements.count, source: source, metadata: metadata,
                uuid: identity.uuid)
            return Parsed(
                recording: try ElectrocardiogramRecording(electrocardiogram: ecg, voltageMeasurements: measurements),
                unmapped: unmapped)
        } catch {
            throw Problem(reason: .invalidValue, line: 1, detail: error.description)
        }
    }

    /// A header line's name and value: `name,value`, the value unquoted when it is quoted (`""` inside is a
    /// quote); a line without a comma is a name with an empty value.
    private static func headerField(_ line: String, line number: Int) throws(Problem) -> (String, String) {
        guard let comma = line.firstIndex(of: ",") else { return (line, "") }
        let name = line[..<comma].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("\"") else { return (name, value) }
        guard value.count >= 2, value.hasSuffix("\"") else {
            throw Problem(reason: .badHeader, line: number, detail: "the value of \"\(name)\" has no closing quote")
        }
        let inner = value.dropFirst().dropLast()
        guard !inner.replacingOccurrences(of: "\"\"", with: "").contains("\"") else {
            throw Problem(reason: .badHeader, line: number, detail: "the value of \"\(name)\" has a stray quote")
        }
        return (name, inner.replacingOccurrences(of: "\"\"", with: "\""))
    }

    /// The value of a line that is a plain decimal number (`-48.673`: only digits, sign, point and exponent, no
    /// spaces), or `nil` for any other line: the fast path for the thousands of voltage lines.
    private static func plainNumber(_ line: ArraySlice<UInt8>) -> Double? {
        guard !line.isEmpty, line.count < 40,
            line.allSatisfy({
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e")
                    || $0 == UInt8(ascii: "E")
            }),
            let value = Double(String(decoding: line, as: UTF8.self)), value.isFinite
        else { return nil }
        return value
    }

    /// A voltage line's value, or `nil` when the line is not a number: optionally quoted, with a decimal point
    /// or (when it holds no point) one decimal comma.
    private static func voltage(_ text: String) -> Double? {
        var text = Substring(text)
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        var number = String(text)
        if !number.contains("."), number.filter({ $0 == "," }).count == 1 {
            number = number.replacingOccurrences(of: ",", with: ".")
        }
        return try? ExportMapper.number(number, "voltage")
    }

    /// A header value that is a number and a unit word from `units` (compared without case): `512 hertz`.
    private static func measure(
        _ field: (value: String, line: Int), name: String, units: Set<String>
    ) throws(Problem) -> Double {
        let parts = field.value.split(separator: " ", maxSplits: 1).map(String.init)
        let unit = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).lowercased() : ""
        guard let first = parts.first, let value = voltage(first) else {
            throw Problem(reason: .badNumber, line: field.line, detail: "\(name) \"\(field.value)\"")
        }
        guard units.contains(unit) else {
            throw Problem(reason: .unknownUnit, line: field.line, detail: "\(name) \"\(field.value)\"")
        }
        return value
    }

    /// The factor that turns the file's unit into microvolts (1 for µV or when no Unit line is given).
    private static func microvoltScale(_ field: (value: String, line: Int)?) throws(Problem) -> Double {
        guard let field else { return 1 }
        var text = field.value
        for micro in ["µ", "μ", "u"] where text.hasPrefix(micro) {
            text = "mc" + text.dropFirst()
        }
        do {
            return try HealthQuantity(unit: try HealthUnit(from: text), doubleValue: 1)
                .doubleValue(for: .voltUnit(with: .micro))
        } catch {
            throw Problem(reason: .unknownUnit, line: field.line, detail: "Unit \"\(field.value)\" is not a voltage")
        }
    }
}
