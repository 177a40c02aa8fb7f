import Foundation
import HealthFlow

/// Metadata keys the import adds to keep what export.xml says and the model has no field for.
extension MetadataKey {
    /// The source's version as the export writes it (`sourceVersion`).
    public static let exportSourceVersion = MetadataKey(rawValue: "HealthExportSourceVersion")
    /// The device description as the export writes it (`device`).
    public static let exportDevice = MetadataKey(rawValue: "HealthExportDevice")
    /// The UTC offset the start date was written with, `+HHMM` or `-HHMM`.
    public static let exportUTCOffset = MetadataKey(rawValue: "HealthExportUTCOffset")
    /// When the record was created (`creationDate`).
    public static let exportCreationDate = MetadataKey(rawValue: "HealthExportCreationDate")
}

extension HealthSource {
    /// The source of an exported record: export.xml names sources (`sourceName`) but not their bundle
    /// identifiers, so the identifier is the name behind a fixed prefix, one per name.
    public static func exported(name: String) -> HealthSource {
        HealthSource(bundleIdentifier: "health-export." + name, name: name)
    }
}

/// Why a record cannot become a sample.
struct RecordProblem: Error {
    let reason: HealthExportSkip.Reason
    let detail: String
}

/// Turns export.xml's elements into HealthFlow's values, with HealthKit's rules.
struct ExportMapper {
    /// Parsed units by their text (an export uses a few dozen).
    private var units: [String: HealthUnit] = [:]
    /// Source names, versions, device descriptions and metadata keys, shared across records.
    var pool = StringPool()

    /// The metadata keys the model expects as numbers; every other key is kept as the string written.
    private static let numericKeys: Set<MetadataKey> = [
        .insulinDeliveryReason, .menstrualCycleStart, .wasUserEntered, .bloodGlucoseMealTime,
        .heartRateMotionContext, .vo2MaxTestType, .syncVersion,
    ]

    /// A category value's name (`HKCategoryValueSleepAnalysisAsleepREM`) to its number, per type.
    private static let categoryValues: [String: Int] = {
        var table: [String: Int] = [:]
        func add<Value: HealthCategoryValue>(_ values: Value.Type) {
            let typeName = Value.categoryType.healthKitIdentifier.replacingOccurrences(
                of: "HKCategoryTypeIdentifier", with: "")
            for value in Value.allCases {
                let caseName = String(describing: value)
                table["HKCategoryValue" + typeName + caseName.prefix(1).uppercased() + caseName.dropFirst()] =
                    value.rawValue
            }
        }
        add(SleepAnalysisValue.self)
        add(MenstrualFlowValue.self)
        add(AppleStandHourValue.self)
        add(MindfulSessionValue.self)
        // Names HealthKit used before sleep stages, and the shared "not applicable".
        table["HKCategoryValueSleepAnalysisAsleep"] = SleepAnalysisValue.asleepUnspecified.rawValue
        table["HKCategoryValueNotApplicable"] = MindfulSessionValue.notApplicable.rawValue
        return table
    }()

    mutating func unit(_ text: String) throws(RecordProblem) -> HealthUnit {
        if let unit = units[text] { return unit }
        do {
            let unit = try HealthUnit(from: text)
            units[text] = unit
            return unit
        } catch {
            throw RecordProblem(reason: .unknownUnit, detail: "unit \"\(text)\" (\(error))")
        }
    }

    static func required(_ element: ExportElement, _ name: String) throws(RecordProblem) -> String {
        guard let value = element[name] else {
            throw RecordProblem(reason: .missingAttribute, detail: "no \(name) attribute")
        }
        return value
    }

    static func date(_ element: ExportElement, _ name: String) throws(RecordProblem) -> ExportDate {
        let text = try required(element, name)
        guard let date = ExportDate(text) else {
            throw RecordProblem(reason: .badDate, detail: "\(name) \"\(text)\"")
        }
        return date
    }

    static func number(_ text: String, _ name: String) throws(RecordProblem) -> Double {
        // Swift's Double(String) reads the C locale's syntax in every locale; reject "nan", "inf" and hex.
        guard let value = Double(text), value.isFinite,
            text.utf8.allSatisfy({
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || ($0 >= 48 && $0 <= 57)
            })
        else { throw RecordProblem(reason: .badNumber, detail: "\(name) \"\(text)\"") }
        return value
    }

    /// The metadata of `MetadataEntry` children, plus the source version, device, creation date and UTC
    /// offset the export writes as attributes.
    mutating func metadata(_ element: ExportElement, start: ExportDate?) -> [MetadataKey: MetadataValue] {
        var metadata = [MetadataKey: MetadataValue](minimumCapacity: element.children.count + 4)
        for entry in element.children where entry.name == "MetadataEntry" {
            guard let key = entry["key"], let value = entry["value"] else { continue }
            let metadataKey = MetadataKey(rawValue: pool.shared(key))
            if Self.numericKeys.contains(metadataKey), let number = Double(value) {
                metadata[metadataKey] = .number(number)
            } else {
                metadata[metadataKey] = .string(pool.shared(value))
            }
        }
        if let version = element["sourceVersion"] { metadata[.exportSourceVersion] = .string(pool.shared(version)) }
        if let device = element["device"] { metadata[.exportDevice] = .string(pool.shared(device)) }
        if let created = element["creationDate"].flatMap(ExportDate.init) {
            metadata[.exportCreationDate] = .date(created.date)
        }
        if let start { metadata[.exportUTCOffset] = .string(start.offsetText) }
        return metadata
    }

    /// The identity fields every record shares: type, source, dates (as instants), and the metadata written.
    static func identity(of element: ExportElement, type: String, start: ExportDate, end: ExportDate)
        -> ContentIdentity
    {
        var identity = ContentIdentity()
        identity.add(element.name)
        identity.add(type)
        identity.add(element["sourceName"] ?? "")
        identity.add(Int64(start.date.timeIntervalSince1970))
        identity.add(Int64(end.date.timeIntervalSince1970))
        let entries = element.children.filter { $0.name == "MetadataEntry" }
        if entries.count == 1 {
            identity.add(key: entries[0]["key"] ?? "", value: entries[0]["value"] ?? "")
        } else if entries.count > 1 {
            for entry in entries.map({ ($0["key"] ?? "") + "=" + ($0["value"] ?? "") }).sorted() {
                identity.add(entry)
            }
        }
        return identity
    }

    /// A `Record` as a quantity or category sample; `nil` for a type the catalog does not hold.
    mutating func sample(fromRecord element: ExportElement) throws(RecordProblem) -> HealthSample? {
        let typeName = try Self.required(element, "type")
        guard let type = HealthObjectType(identifier: typeName), type.kind == .quantity || type.kind == .category
        else { return nil }
        let start = try Self.date(element, "startDate")
        let end = try Self.date(element, "endDate")
        guard end.date >= start.date else {
            throw RecordProblem(reason: .endBeforeStart, detail: "ends before it starts")
        }
        let valueText = try Self.required(element, "value")
        var identity = Self.identity(of: element, type: typeName, start: start, end: end)
        identity.add(element["unit"] ?? "")
        identity.add(valueText)
        let source = pool.source(named: element["sourceName"] ?? "")
        let metadata = metadata(element, start: start)
        do {
            if type.kind == .quantity {
                let unit = try unit(try Self.required(element, "unit"))
                let value = try Self.number(valueText, "value")
                return .quantity(
                    try HealthQuantitySample(
                        type: type, quantity: HealthQuantity(unit: unit, doubleValue: value), start: start.date,
                        end: end.date, source: source, metadata: metadata, uuid: identity.uuid))
            }
            guard let value = Self.categoryValues[valueText] ?? Int(valueText) else {
                throw RecordProblem(reason: .invalidValue, detail: "category value \"\(valueText)\"")
            }
            return .category(
                try HealthCategorySample(
                    type: type, value: value, start: start.date, end: end.date, source: source, metadata: metadata,
                    uuid: identity.uuid))
        } catch let error as ValidationError {
            throw Self.problem(error)
        } catch let problem as RecordProblem {
            throw problem
        } catch {
            throw RecordProblem(reason: .invalidValue, detail: "\(error)")
        }
    }

    static func problem(_ error: ValidationError) -> RecordProblem {
        switch error {
        case .incompatibleUnit: RecordProblem(reason: .unitNotForType, detail: error.description)
        case .endBeforeStart: RecordProblem(reason: .endBeforeStart, detail: error.description)
        case .nonFiniteValue: RecordProblem(reason: .badNumber, detail: error.description)
        case .invalidDate: RecordProblem(reason: .badDate, detail: error.description)
        case .missingCorrelationMember, .unexpectedCorrelationMember, .duplicateCorrelationMember,
            .correlationMemberDatesDiffer, .duplicateUUID:
            RecordProblem(reason: .invalidCorrelation, detail: error.description)
        default: RecordProblem(reason: .invalidValue, detail: error.description)
        }
    }

    /// A `Correlation` with its member `Record`s; `nil` for a correlation type the catalog does not hold.
    mutating func correlation(from element: ExportElement) throws(RecordProblem) -> HealthCorrelation? {
        let typeName = try Self.required(element, "type")
        guard let type = HealthObjectType(identifier: typeName), type.kind == .correlation else { return nil }
        let start = try Self.date(element, "startDate")
        let end = try Self.date(element, "endDate")
        guard end.date >= start.date else {
            throw RecordProblem(reason: .endBeforeStart, detail: "ends before it starts")
        }
        var members = Set<HealthQuantitySample>()
        var identity = Self.identity(of: element, type: typeName, start: start, end: end)
        for child in element.children where child.name == "Record" {
            guard case .quantity(let member)? = try sample(fromRecord: child) else {
                throw RecordProblem(
                    reason: .invalidCorrelation, detail: "member \(child["type"] ?? "without a type") is no quantity")
            }
            members.insert(member)
        }
        for member in members.map(\.uuid).sorted(by: { $0.uuidString < $1.uuidString }) { identity.add(member) }
        do {
            return try HealthCorrelation(
                type: type, start: start.date, end: end.date, objects: members,
                source: pool.source(named: element["sourceName"] ?? ""), metadata: metadata(element, start: start),
                uuid: identity.uuid)
        } catch {
            throw Self.problem(error)
        }
    }
}
