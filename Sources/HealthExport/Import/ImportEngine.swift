import FlowKit
import Foundation
import HealthFlow

/// The import itself: scan, map and batch on the caller's thread, while the batches before are prepared and
/// written on two others (``BatchWriteAhead``).
struct ImportEngine {
    let path: String
    let options: HealthExportOptions
    let store: any HealthStore
    let isCancelled: @Sendable () -> Bool
    let onProgress: @Sendable (_ bytesRead: Int64, _ totalBytes: Int64, _ report: HealthExportReport) -> Void

    /// The counts so far; after `run()` throws, as they stood when it stopped.
    private(set) var report = HealthExportReport()
    private var mapper = ExportMapper()
    private var batch: [HealthSample] = []
    /// The types of ``batch``, counted as its samples are added.
    private var batchTypes = BatchTypeTally()
    /// The types of each batch in flight, oldest first, as ``writeAhead`` holds them.
    private var typesInFlight: [BatchTypeTally] = []
    private var batchUUIDs = Set<UUID>()
    /// Top-level records of correlation member types, written after the correlations are read unless one
    /// holds them.
    private var heldMembers: HeldSampleSpool?
    private var correlationMembers = Set<UUID>()
    private var exportOffset = 0
    private var skipLog: FileHandle?
    /// The export's route files, found when the first workout naming one is read.
    private var routeFiles: WorkoutRouteFiles?
    /// Heartbeat series read since the last flush, written after the batch of samples.
    private var heartbeatBatch: [HeartbeatSeriesRecording] = []
    private var heartbeatBatchUUIDs = Set<UUID>()
    /// The batches of samples being written while the next are read.
    private let writeAhead: BatchWriteAhead
    /// Per type, the store's anchor before this import first wrote the type (none when the store could not say):
    /// a record the store refuses as held was repeated within the export when the store received it after that.
    private var anchorsAtStart: [HealthObjectType: HealthQueryAnchor] = [:]
    private var typesAnchored = Set<HealthObjectType>()

    init(
        path: String, options: HealthExportOptions, store: any HealthStore,
        isCancelled: @escaping @Sendable () -> Bool,
        onProgress: @escaping @Sendable (Int64, Int64, HealthExportReport) -> Void
    ) {
        self.path = path
        self.options = options
        self.store = store
        self.isCancelled = isCancelled
        self.onProgress = onProgress
        writeAhead = BatchWriteAhead(depth: Self.batchesInFlight, isCancelled: isCancelled)
    }

    mutating func run() throws -> HealthExportReport {
        let started = Date()
        let source = try ExportInput.open(path)
        report.totalBytes = source.totalBytes
        if let skipPath = options.skipReportPath {
            guard
                FileManager.default.createFile(atPath: skipPath, contents: Data("line\treason\telement\tdetail\n".utf8))
            else { throw HealthExportError.io(path: skipPath, operation: "create", errno: errno) }
            skipLog = FileHandle(forWritingAtPath: skipPath)
            skipLog?.seekToEndOfFile()
            report.skipReportPath = skipPath
        }
        defer { try? skipLog?.close() }
        let writer = ExportWriter(store: store)
        writer.prepare()
        let scanner = ExportXMLScanner(source: source)
        // No write outlives the import: whatever ends it, the batches in flight are settled first (their errors, if
        // any, are left behind the one that ended the import).
        defer { while writeAhead.settle() != nil {} }
        do {
            try scan(scanner, source: source, writer: writer)
        } catch {
            // The held records are not written: a correlation later in the file may list them, and one stored on
            // its own would keep that correlation out of the store on the next run. The report counts them.
            countHeldMembersNotWritten()
            if error is HealthExportError {
                // Keep what was read before the damage: the records of the batch under way are whole.
                try flush(writer)
                try settleWrites()
            }
            throw error
        }
        try flush(writer)
        try heldMembers?.forEach { member in
            if correlationMembers.contains(member.uuid) {
                report.correlationMembersMerged += 1
            } else {
                try add(member, writer: writer)
            }
        }
        heldMembers = nil
        try flush(writer)
        try settleWrites()
        try importElectrocardiograms(writer: writer)
        report.bytesRead = source.consumedBytes
        report.lines = scanner.line
        report.xmlBytes = scanner.offset
        report.duration = Date().timeIntervalSince(started)
        // Done: the whole input counts as read (a zip's directory after the entry is never read).
        onProgress(source.totalBytes, source.totalBytes, report)
        return report
    }

    /// Counts, for an import that stops early, the held records no correlation read so far lists in
    /// ``HealthExportReport/heldMembersNotWritten`` (those one lists are stored inside it); all of them when the
    /// spool cannot be read back.
    private mutating func countHeldMembersNotWritten() {
        guard let heldMembers else { return }
        var claimed = 0
        do {
            try heldMembers.forEach { if correlationMembers.contains($0.uuid) { claimed += 1 } }
        } catch {
            claimed = 0
        }
        report.correlationMembersMerged += claimed
        report.heldMembersNotWritten += heldMembers.count - claimed
        self.heldMembers = nil
    }

    /// Reads the top-level elements one at a time, checking for cancellation every few thousand.
    private mutating func scan(
        _ scanner: ExportXMLScanner, source: any ExportByteSource, writer: ExportWriter
    ) throws {
        var depth = 0
        var elementsSinceCheck = 0
        while let event = try scanner.next() {
            switch event {
            case .start(let start, let selfClosing, let offset):
                guard depth > 0 else {
                    depth = selfClosing ? 0 : 1
                    if let problem = scanner.takeValueNotUTF8() {
                        throw HealthExportError.malformedXML(
                            offset: offset, line: problem.line,
                            problem: "attribute \(problem.attribute) of <\(start.name)> is not UTF-8")
                    }
                    continue
                }
                let element = try scanner.element(start, selfClosing: selfClosing)
                if let problem = scanner.takeValueNotUTF8() {
                    try skip(
                        HealthExportSkip(
                            reason: .notUTF8, line: element.line,
                            element: element["type"].map { "\(element.name) \($0)" } ?? element.name,
                            detail: "attribute \(problem.attribute) of <\(problem.element)> on line \(problem.line) "
                                + "is not UTF-8"))
                    continue
                }
                try take(element, writer: writer)
            case .end:
                depth -= 1
            }
            elementsSinceCheck += 1
            if elementsSinceCheck == 4096 {
                elementsSinceCheck = 0
                if isCancelled() { throw CancellationError() }
                report.bytesRead = source.consumedBytes
                onProgress(source.consumedBytes, source.totalBytes, report)
            }
        }
    }

    private mutating func take(_ element: ExportElement, writer: ExportWriter) throws {
        switch element.name {
        case "Record":
            let hasBeats =
                element.withValue("type") { ExactString.bytes(of: Self.heartRateVariabilityIdentifier, equal: $0) }
                ?? false
            guard
                let sample = try mapped(
                    element, children: hasBeats ? Self.heartRateVariabilityChildren : Self.recordChildren,
                    { try $0.sample(fromRecord: element) })
            else { return }
            if Self.isCorrelationMember(sample.type) {
                if heldMembers == nil { heldMembers = try HeldSampleSpool() }
                try heldMembers?.append(sample)
            } else if hasBeats {
                try add(sample, writer: writer)
                try addHeartbeatSeries(of: element, sample: sample, writer: writer)
            } else {
                // The sample's last use: moved into the batch, not copied.
                try add(consume sample, writer: writer)
            }
        case "Correlation":
            guard
                let correlation = try mapped(
                    element, children: Self.correlationChildren, { try $0.correlation(from: element) })
            else { return }
            correlationMembers.formUnion(correlation.objects.map(\.uuid))
            try add(.correlation(correlation), writer: writer)
        case "Workout":
            guard let mapped = try mapped(element, children: Self.workoutChildren, { try $0.workout(from: element) })
            else { return }
            for name in mapped.unknownStatistics { report.unknownTypes["WorkoutStatistics " + name, default: 0] += 1 }
            report.workoutRouteFiles += mapped.routeFiles.count
            if mapped.routeFiles.isEmpty {
                try add(.workout(mapped.workout), writer: writer)
            } else {
                try add(mapped.workout, routeFiles: mapped.routeFiles, line: element.line, writer: writer)
            }
        case "ActivitySummary":
            let offset = exportOffset
            if let summary = try mapped(element, { try $0.activitySummary(from: element, utcOffset: offset) }) {
                report.activitySummaries.append(summary)
            }
        case "Me":
            let (characteristics, unmapped) = ExportMapper.characteristics(from: element)
            report.characteristics = characteristics
            for name in unmapped { report.unmappedElements["Me@" + name, default: 0] += 1 }
        case "ExportDate":
            if let date = element["value"].flatMap(ExportDate.init) {
                report.exportDate = date.date
                exportOffset = date.utcOffset
            }
        default:
            report.unmappedElements[element.name, default: 0] += 1
        }
    }

    /// Maps an element, counting children other than `children` and a type the catalog lacks, and logging a
    /// malformed record; `nil` for the last two. `map` throws ``RecordProblem`` for a malformed record.
    private mutating func mapped<Value>(
        _ element: ExportElement, children: [StaticString]? = nil, _ map: (inout ExportMapper) throws -> Value?
    ) throws -> Value? {
        if let children {
            for child in element.children where !children.contains(where: { child.isNamed($0) }) {
                report.unmappedElements[element.name + ">" + child.name, default: 0] += 1
            }
        }
        do {
            if let value = try map(&mapper) { return value }
            report.unknownTypes[element["type"] ?? element.name, default: 0] += 1
        } catch let error as RecordProblem {
            try skip(
                HealthExportSkip(
                    reason: error.reason, line: element.line,
                    element: element["type"].map { "\(element.name) \($0)" } ?? element.name, detail: error.detail))
        }
        return nil
    }

    /// Counts `skip` in the report and lists it in the skip report file, if any.
    private mutating func skip(_ skip: HealthExportSkip) throws {
        report.skip(skip)
        if let skipLog {
            let text = [String(skip.line), skip.reason.rawValue, skip.element, skip.detail]
                .map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") }
                .joined(separator: "\t")
            try skipLog.write(contentsOf: Data((text + "\n").utf8))
        }
    }

    /// Imports the export's ECG CSVs, one at a time: each becomes an ECG with its voltage measurements, or a
    /// skip naming the file and line.
    private mutating func importElectrocardiograms(writer: ExportWriter) throws {
        for file in try ElectrocardiogramFile.find(in: path) {
            if isCancelled() { throw CancellationError() }
            let bytes: [UInt8]
            do {
                guard let read = try file.contents() else {
                    try skip(
                        HealthExportSkip(
                            reason: .badHeader, line: 1, element: file.name,
                            detail: "larger than \(ElectrocardiogramFile.sizeLimit >> 20) MiB: not an ECG recording"))
                    continue
                }
                bytes = read
            } catch let error as HealthExportError {
                guard case .damagedZip = error else { throw error }
                try skip(HealthExportSkip(reason: .truncated, line: 1, element: file.name, detail: error.description))
                continue
            }
            let parsed: ElectrocardiogramCSV.Parsed
            do throws(ElectrocardiogramCSV.Problem) {
                parsed = try ElectrocardiogramCSV.parse(bytes)
            } catch {
                let problem = error
                try skip(
                    HealthExportSkip(
                        reason: problem.reason, line: problem.line, element: file.name, detail: problem.detail))
                continue
            }
            for name in parsed.unmapped { report.unmappedElements[name, default: 0] += 1 }
            try settleWrites()
            let outcome = try writer.write(parsed.recording)
            guard outcome.isNew else {
                report.alreadyInStore += 1
                continue
            }
            report.imported[HealthObjectType.electrocardiogram.identifier, default: 0] += 1
            if outcome.keptVoltages {
                report.voltageMeasurements += parsed.recording.voltageMeasurements.count
            } else {
                report.electrocardiogramsWithoutVoltages += 1
            }
        }
    }

    /// Writes a workout with the routes of its route files (read from the zip or folder as it is met): a file
    /// that is missing, damaged or not a route is a listed skip, and the workout is kept without that route.
    private mutating func add(
        _ workout: HealthWorkout, routeFiles files: [String], line: Int, writer: ExportWriter
    ) throws {
        if routeFiles == nil { routeFiles = try WorkoutRouteFiles(exportAt: path) }
        var routes: [HealthWorkoutRoute] = []
        for file in files {
            let bytes: [UInt8]
            do {
                switch try routeFiles?.contents(of: file) ?? .missing {
                case .bytes(let read):
                    bytes = read
                case .missing:
                    try skip(
                        HealthExportSkip(
                            reason: .missingFile, line: line, element: "Workout", detail: "no route file \(file)"))
                    continue
                case .ambiguous(let entries):
                    try skip(
                        HealthExportSkip(
                            reason: .ambiguousFile, line: line, element: "Workout",
                            detail: "route file \(file) is in the zip \(entries.count) times, none read: "
                                + entries.joined(separator: ", ")))
                    continue
                }
            } catch let error as HealthExportError {
                switch error {
                case .damagedZip:
                    try skip(HealthExportSkip(reason: .truncated, line: 1, element: file, detail: error.description))
                case .io(_, _, let errno) where errno == EFBIG:
                    try skip(HealthExportSkip(reason: .badRoute, line: 1, element: file, detail: error.description))
                default:
                    throw error
                }
                continue
            }
            do throws(WorkoutRouteGPX.Problem) {
                routes.append(try WorkoutRouteGPX.parse(bytes))
            } catch {
                try skip(HealthExportSkip(reason: .badRoute, line: error.line, element: file, detail: error.detail))
            }
        }
        try settleWrites()
        anchorTypes([workout.type], writer: writer)
        let outcome = try writer.write(WorkoutRecording(workout: workout, routes: routes))
        guard outcome.isNew else {
            countRefused([.workout(workout)])
            let added = try writer.addMissingRoutes(routes, to: workout)
            report.workoutRoutes += added.count
            report.routeLocations += added.reduce(0) { $0 + $1.locations.count }
            return
        }
        report.imported[HealthObjectType.workout.identifier, default: 0] += 1
        if outcome.keptRoutes {
            report.workoutRoutes += routes.count
            report.routeLocations += routes.reduce(0) { $0 + $1.locations.count }
        } else {
            report.workoutRoutesNotKept += routes.count
        }
    }

    /// Adds a series per `HeartRateVariabilityMetadataList` of the record `element` that became `sample`
    /// (``HeartbeatList``): a list that cannot be one is a listed skip, and the sample is kept without it.
    private mutating func addHeartbeatSeries(
        of element: ExportElement, sample: HealthSample, writer: ExportWriter
    ) throws {
        let lists = element.children.filter { $0.isNamed(HeartbeatList.elementName) }
        guard !lists.isEmpty, let start = element["startDate"].flatMap(ExportDate.init),
            let end = element["endDate"].flatMap(ExportDate.init)
        else { return }
        var identity = mapper.identity(of: element, typeAttribute: "type", start: start, end: end)
        identity.add(element["unit"] ?? "")
        identity.add(element["value"] ?? "")
        for (index, list) in lists.enumerated() {
            for child in list.children where !child.isNamed(HeartbeatList.beatName) {
                report.unmappedElements["\(HeartbeatList.elementName)>\(child.name)", default: 0] += 1
            }
            let recording: HeartbeatSeriesRecording
            do throws(HeartbeatList.Problem) {
                recording = try HeartbeatList.recording(
                    from: list, index: index, of: sample, start: start, identity: identity)
            } catch {
                try skip(
                    HealthExportSkip(
                        reason: .badHeartbeat, line: error.line,
                        element: "Record \(element["type"] ?? "")>\(HeartbeatList.elementName)", detail: error.detail))
                continue
            }
            guard heartbeatBatchUUIDs.insert(recording.series.uuid).inserted else {
                report.repeatedInExport += 1
                continue
            }
            heartbeatBatch.append(recording)
        }
        if heartbeatBatch.count >= options.batchSize { try flush(writer) }
    }

    /// Writes the heartbeat series read since the last flush, counting them like the samples.
    private mutating func flushHeartbeatSeries(_ writer: ExportWriter) throws {
        guard !heartbeatBatch.isEmpty else { return }
        try settleWrites()
        anchorTypes([heartbeatBatch[0].series.type], writer: writer)
        let written = try writer.write(heartbeatBatch)
        if written.recordings.count != heartbeatBatch.count {
            let newUUIDs = Set(written.recordings.map(\.series.uuid))
            countRefused(
                heartbeatBatch.filter { !newUUIDs.contains($0.series.uuid) }.map { .heartbeatSeries($0.series) })
        }
        if !written.recordings.isEmpty {
            report.imported[HealthObjectType.heartbeatSeries.identifier, default: 0] += written.recordings.count
        }
        if written.keptBeats {
            report.heartbeats += written.recordings.reduce(0) { $0 + $1.heartbeats.count }
        } else {
            report.heartbeatSeriesWithoutBeats += written.recordings.count
        }
        heartbeatBatch.removeAll(keepingCapacity: true)
        heartbeatBatchUUIDs.removeAll(keepingCapacity: true)
    }

    private static let heartRateVariabilityIdentifier = HealthObjectType.heartRateVariabilitySDNN.healthKitIdentifier

    /// The children each element maps; any other child is counted as unmapped.
    private static let recordChildren: [StaticString] = ["MetadataEntry"]
    private static let heartRateVariabilityChildren: [StaticString] = ["MetadataEntry", HeartbeatList.elementName]
    private static let correlationChildren: [StaticString] = ["MetadataEntry", "Record"]
    private static let workoutChildren: [StaticString] = [
        "MetadataEntry", "WorkoutEvent", "WorkoutStatistics", "WorkoutActivity", "WorkoutRoute",
    ]

    private static func isCorrelationMember(_ type: HealthObjectType) -> Bool {
        type == .bloodPressureSystolic || type == .bloodPressureDiastolic || type.isNutrition
    }

    private mutating func add(_ sample: consuming HealthSample, writer: ExportWriter) throws {
        guard batchUUIDs.insert(sample.uuid).inserted else {
            report.repeatedInExport += 1
            return
        }
        batchTypes.add(sample.type)
        batch.append(sample)
        if batch.count >= options.batchSize { try flush(writer) }
    }

    /// Takes the store's anchor for each type of `samples` this import has not written yet (a batch holds few
    /// types, in runs), before the first write of it.
    private mutating func anchorTypes(_ types: [HealthObjectType], writer: ExportWriter) {
        for type in types where typesAnchored.insert(type).inserted {
            anchorsAtStart[type] = writer.currentAnchor(of: type)
        }
    }

    /// Counts `refused` — samples the store refused as held — as repeated within the export when this import
    /// wrote them, and as already in the store otherwise.
    private mutating func countRefused(_ refused: [HealthSample]) {
        guard !refused.isEmpty else { return }
        let anchors = anchorsAtStart
        let repeats = ExportWriter(store: store).received(refused, after: { anchors[$0] }).count
        report.repeatedInExport += repeats
        report.alreadyInStore += refused.count - repeats
    }

    /// Hands the batch read so far to ``BatchWriteAhead`` once there is room (the oldest batch in flight written
    /// and counted when ``batchesInFlight`` are), then writes the heartbeat series read since the last flush.
    private mutating func flush(_ writer: ExportWriter) throws {
        defer { batchUUIDs.removeAll(keepingCapacity: true) }
        if !batch.isEmpty {
            if writeAhead.isFull, let oldest = writeAhead.settle() { try tally(oldest) }
            // A batch's job asks again before its write starts: none starts after a cancellation one may cause.
            if isCancelled() { throw CancellationError() }
            anchorTypes(batchTypes.types, writer: writer)
            writeAhead.start(batch, with: writer)
            mapper.startBatch()
            typesInFlight.append(batchTypes)
            batchTypes = BatchTypeTally()
            batch = []
            batch.reserveCapacity(options.batchSize)
        }
        try flushHeartbeatSeries(writer)
    }

    /// How many batches of samples may be written while the import reads on: enough that the store's slower
    /// batches (those that flush or merge its tables) do not stop the reading; each holds `batchSize` samples.
    static let batchesInFlight = 4

    /// Waits for every batch in flight and counts each in the report, in order; throws the first store error.
    private mutating func settleWrites() throws {
        while let outcome = writeAhead.settle() { try tally(outcome) }
    }

    /// Counts a settled batch in the report; throws the store's error if its write failed.
    private mutating func tally(_ outcome: BatchWriteAhead.Outcome) throws {
        let (written, result) = outcome
        let types = typesInFlight.removeFirst()
        let new = try result.get()
        guard written.count != new.count else { return count(types) }
        let newUUIDs = Set(new.map(\.uuid))
        countRefused(written.filter { !newUUIDs.contains($0.uuid) })
        count(BatchTypeTally(new))
    }

    /// Counts written samples per type in the report: the report's dictionary is looked up once per type.
    private mutating func count(_ written: BatchTypeTally) {
        for (type, count) in written.counts { report.imported[type.identifier, default: 0] += count }
    }
}
