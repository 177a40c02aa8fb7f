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

/// A record's metadata from its attributes, with the bytes it was made from.
struct AttributeMetadata {
    let version: [UInt8]?
    let device: [UInt8]?
    let offset: Int?
    let metadata: [MetadataKey: MetadataValue]

    /// Whether it was made from these bytes (both absent or equal) and this offset.
    func matches(version: UnsafeRawBufferPointer?, device: UnsafeRawBufferPointer?, offset: Int?) -> Bool {
        func same(_ held: [UInt8]?, _ given: UnsafeRawBufferPointer?) -> Bool {
            guard let held, let given else { return held == nil && given == nil }
            return held.withUnsafeBytes { ElementTree.equal($0, given) }
        }
        return self.offset == offset && same(self.version, version) && same(self.device, device)
    }
}

/// Turns export.xml's elements into HealthFlow's values, with HealthKit's rules.
struct ExportMapper {
    /// Parsed units by their text (an export uses a few dozen), the last few also by their bytes.
    private var units = ParsedUnits()
    private var recentUnits = RecentByBytes<HealthUnit>(capacity: 8)
    /// Catalog types by the identifiers met last (`nil` for one the catalog lacks).
    private var recentTypes = RecentByBytes<HealthObjectType?>(capacity: 8)
    /// Source names, versions, device descriptions and metadata keys, shared across records.
    private var pool = StringPool()
    /// The attribute metadata of the last few combinations of source version, device and UTC offset.
    private var recentAttributeMetadata = RecentEntries<AttributeMetadata>(capacity: recentAttributeMetadataCapacity)
    private static let recentAttributeMetadataCapacity = 4
    /// The identity of the record being mapped, kept from one record to the next for its buffer.
    private var recordIdentity = ContentIdentity()
    /// Scratch for sorting a record's metadata entries into its identity.
    private var entryBytes: [UInt8] = []
    private var entryRanges: [Range<Int>] = []

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
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(RecordProblem) in try unit(UnsafeRawBufferPointer(bytes)) }
        }.get()
    }

    /// The unit written as the UTF-8 `bytes`, parsed once per spelling.
    mutating func unit(_ bytes: UnsafeRawBufferPointer) throws(RecordProblem) -> HealthUnit {
        if let unit = recentUnits.value(for: bytes) { return unit }
        let text = String(decoding: bytes, as: UTF8.self)
        let unit: HealthUnit
        do {
            unit = try units.unit(text)
        } catch {
            throw RecordProblem(reason: .unknownUnit, detail: "unit \"\(text)\" (\(error))")
        }
        recentUnits.add(bytes, unit)
        return unit
    }

    /// The catalog type whose identifier is the UTF-8 `bytes`, or `nil` when the catalog lacks it.
    mutating func objectType(_ bytes: UnsafeRawBufferPointer) -> HealthObjectType? {
        if let type = recentTypes.value(for: bytes) { return type }
        let type = HealthObjectType(identifier: String(decoding: bytes, as: UTF8.self))
        recentTypes.add(bytes, type)
        return type
    }

    static func missing(_ name: StaticString) -> RecordProblem {
        RecordProblem(reason: .missingAttribute, detail: "no \(name) attribute")
    }

    static func required(_ element: ExportElement, _ name: String) throws(RecordProblem) -> String {
        guard let value = element[name] else {
            throw RecordProblem(reason: .missingAttribute, detail: "no \(name) attribute")
        }
        return value
    }

    static func date(_ element: ExportElement, _ name: StaticString) throws(RecordProblem) -> ExportDate {
        guard let parsed = element.withValue(name, { ExportDate($0) }) else { throw missing(name) }
        guard let date = parsed else {
            throw RecordProblem(reason: .badDate, detail: "\(name) \"\(element["\(name)"] ?? "")\"")
        }
        return date
    }

    static func number(_ text: String, _ name: String) throws(RecordProblem) -> Double {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(RecordProblem) in try number(UnsafeRawBufferPointer(bytes), name) }
        }.get()
    }

    /// The number written as the UTF-8 `bytes`: decimal, in the C locale's syntax whatever the process's locale
    /// (Swift's `Double(String)`), finite; "nan", "inf" and hexadecimal are refused.
    static func number(_ bytes: UnsafeRawBufferPointer, _ name: String) throws(RecordProblem) -> Double {
        let text = String(decoding: bytes, as: UTF8.self)
        guard
            bytes.allSatisfy({
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || ($0 >= 48 && $0 <= 57)
            }), let value = Double(text), value.isFinite
        else { throw RecordProblem(reason: .badNumber, detail: "\(name) \"\(text)\"") }
        return value
    }

    /// The metadata of `MetadataEntry` children, plus the source version, device, creation date and UTC
    /// offset the export writes as attributes (which win over an entry with the same key). A key the model
    /// expects a number under keeps a string it cannot read as one (validation then names it).
    mutating func metadata(_ element: ExportElement, start: ExportDate?) -> [MetadataKey: MetadataValue] {
        let base = attributeMetadata(element, start: start)
        var metadata = base
        for entry in element.children where entry.isNamed("MetadataEntry") {
            entry.withValue("key") { key in
                entry.withValue("value") { value in
                    if Self.mayBeExportKey(key),
                        base[MetadataKey(rawValue: String(decoding: key, as: UTF8.self))] != nil
                    {
                        return
                    }
                    let metadataKey = MetadataKey(rawValue: pool.shared(key))
                    if metadataKey.expectsNumber, let number = Double(String(decoding: value, as: UTF8.self)) {
                        metadata[metadataKey] = .number(number)
                    } else {
                        metadata[metadataKey] = .string(pool.shared(value))
                    }
                }
            }
        }
        if let created = element.withValue("creationDate", { ExportDate($0) }) ?? nil {
            metadata[.exportCreationDate] = .date(created.date)
        }
        return metadata
    }

    /// Whether `key` may be one of the keys the import adds (``MetadataKey/exportSourceVersion`` and the others
    /// named `HealthExport…`).
    private static func mayBeExportKey(_ key: UnsafeRawBufferPointer) -> Bool {
        let prefix: StaticString = "HealthExport"
        return key.count >= prefix.utf8CodeUnitCount
            && memcmp(key.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    /// The metadata of `element`'s source version, device and the UTC offset of `start`: the last such
    /// dictionary when these are the same — a source writes them alike on every record — so that a record's
    /// metadata starts as a copy (which keeps the original's layout: no key is hashed again) rather than with
    /// three insertions. Made with room for a creation date and two entries (a sample's dictionary is held in
    /// memory until its batch is stored, so it is not made larger than most records need).
    private mutating func attributeMetadata(
        _ element: ExportElement, start: ExportDate?
    ) -> [MetadataKey: MetadataValue] {
        let version = element.value(of: "sourceVersion")
        let device = element.value(of: "device")
        let offset = start?.utcOffset
        // Compared in place: reading an entry out of the array would copy (retain) all it holds.
        let found = recentAttributeMetadata.entries.withUnsafeBufferPointer { entries in
            entries.indices.first { entries[$0].matches(version: version, device: device, offset: offset) }
        }
        if let found { return recentAttributeMetadata.entries[found].metadata }
        var metadata = [MetadataKey: MetadataValue](minimumCapacity: 4)
        if let version { metadata[.exportSourceVersion] = .string(pool.shared(version)) }
        if let device { metadata[.exportDevice] = .string(pool.shared(device)) }
        if let start { metadata[.exportUTCOffset] = .string(start.offsetText) }
        let made = AttributeMetadata(
            version: version.map(Array.init), device: device.map(Array.init), offset: offset, metadata: metadata)
        recentAttributeMetadata.add(made)
        return metadata
    }

    /// Starts a batch: the strings and dictionaries handed out from now on are the batch's own
    /// (``StringPool/startBatch()``).
    mutating func startBatch() {
        pool.startBatch()
        recentAttributeMetadata = RecentEntries(capacity: Self.recentAttributeMetadataCapacity)
    }

    /// The identity fields every record shares: the element's name, its type (the attribute `typeAttribute`),
    /// source, dates (as instants), and the metadata entries written (`key=value`, in `String` order when there
    /// are several). An attribute not written counts as empty.
    mutating func identity(
        of element: ExportElement, typeAttribute: StaticString, start: ExportDate, end: ExportDate
    ) -> ContentIdentity {
        makeRecordIdentity(of: element, typeAttribute: typeAttribute, start: start, end: end)
        return recordIdentity
    }

    /// ``identity(of:typeAttribute:start:end:)`` made in ``recordIdentity``.
    private mutating func makeRecordIdentity(
        of element: ExportElement, typeAttribute: StaticString, start: ExportDate, end: ExportDate
    ) {
        recordIdentity.reset()
        element.withName { recordIdentity.add($0) }
        recordIdentity.add(attribute: typeAttribute, of: element)
        recordIdentity.add(attribute: "sourceName", of: element)
        recordIdentity.add(Int64(start.date.timeIntervalSince1970))
        recordIdentity.add(Int64(end.date.timeIntervalSince1970))
        entryBytes.removeAll(keepingCapacity: true)
        entryRanges.removeAll(keepingCapacity: true)
        for entry in element.children where entry.isNamed("MetadataEntry") {
            let first = entryBytes.count
            entry.withValue("key") { entryBytes.append(contentsOf: $0) }
            entryBytes.append(UInt8(ascii: "="))
            entry.withValue("value") { entryBytes.append(contentsOf: $0) }
            entryRanges.append(first..<entryBytes.count)
        }
        guard !entryRanges.isEmpty else { return }
        if entryRanges.count > 1 {
            if entryBytes.allSatisfy({ $0 < 0x80 }) {
                // ASCII strings are in `String` order exactly when their bytes are.
                entryBytes.withUnsafeBytes { bytes in
                    entryRanges.sort { Self.bytes(bytes, $0, precede: $1) }
                }
            } else {
                let strings = entryRanges.map { String(decoding: entryBytes[$0], as: UTF8.self) }.sorted()
                for string in strings { recordIdentity.add(string) }
                return
            }
        }
        entryBytes.withUnsafeBytes { bytes in
            for range in entryRanges { recordIdentity.add(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        }
    }

    /// Whether `bytes[first]` comes before `bytes[second]` in lexicographic byte order.
    private static func bytes(_ bytes: UnsafeRawBufferPointer, _ first: Range<Int>, precede second: Range<Int>) -> Bool
    {
        let common = min(first.count, second.count)
        let order =
            common == 0
            ? 0 : memcmp(bytes.baseAddress! + first.lowerBound, bytes.baseAddress! + second.lowerBound, common)
        return order != 0 ? order < 0 : first.count < second.count
    }

    /// The exported source its `sourceName` names (an empty name when none is written).
    mutating func source(of element: ExportElement) -> HealthSource {
        element.withValue("sourceName") { pool.source(named: $0) }
            ?? pool.source(named: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// A `Record` as a quantity or category sample; `nil` for a type the catalog does not hold.
    mutating func sample(fromRecord element: ExportElement) throws(RecordProblem) -> HealthSample? {
        guard let named = element.withValue("type", { objectType($0) }) else { throw Self.missing("type") }
        guard let type = named, type.kind == .quantity || type.kind == .category else { return nil }
        let start = try Self.date(element, "startDate")
        let end = try Self.date(element, "endDate")
        guard end.date >= start.date else {
            throw RecordProblem(reason: .endBeforeStart, detail: "ends before it starts")
        }
        guard element.has("value") else { throw Self.missing("value") }
        makeRecordIdentity(of: element, typeAttribute: "type", start: start, end: end)
        recordIdentity.add(attribute: "unit", of: element)
        recordIdentity.add(attribute: "value", of: element)
        let uuid = recordIdentity.uuid
        let source = source(of: element)
        let metadata = metadata(element, start: start)
        do {
            if type.kind == .quantity {
                guard let unit = try element.withValue("unit", { bytes throws(RecordProblem) in try unit(bytes) })
                else { throw Self.missing("unit") }
                let value = try element.withValue("value") { bytes throws(RecordProblem) in
                    try Self.number(bytes, "value")
                }!
                return .quantity(
                    try HealthQuantitySample(
                        type: type, quantity: HealthQuantity(unit: unit, doubleValue: value), start: start.date,
                        end: end.date, source: source, metadata: metadata, uuid: uuid))
            }
            let valueText = element["value"]!
            guard let value = Self.categoryValues[valueText] ?? Int(valueText) else {
                throw RecordProblem(reason: .invalidValue, detail: "category value \"\(valueText)\"")
            }
            return .category(
                try HealthCategorySample(
                    type: type, value: value, start: start.date, end: end.date, source: source, metadata: metadata,
                    uuid: uuid))
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
        guard let named = element.withValue("type", { objectType($0) }) else { throw Self.missing("type") }
        guard let type = named, type.kind == .correlation else { return nil }
        let start = try Self.date(element, "startDate")
        let end = try Self.date(element, "endDate")
        guard end.date >= start.date else {
            throw RecordProblem(reason: .endBeforeStart, detail: "ends before it starts")
        }
        var members = Set<HealthQuantitySample>()
        var identity = identity(of: element, typeAttribute: "type", start: start, end: end)
        for child in element.children where child.isNamed("Record") {
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
                source: source(of: element), metadata: metadata(element, start: start),
                uuid: identity.uuid)
        } catch {
            throw Self.problem(error)
        }
    }
}
