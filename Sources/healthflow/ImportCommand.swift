import ExampleSupport
import Foundation
import HealthExport
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `healthflow import PATH [--data DIR [--repair]]`: imports a Health app export into the durable store the
/// demo and sync use, through ``HealthExportImport``.
struct ImportCommand: Command {
    let name = "import"
    let summary =
        "Import a Health app export (export.zip, its apple_health_export folder, or export.xml) into the store, "
        + "streaming; importing it again adds nothing. Then 'healthflow demo --data DIR' runs on your data."
    let usage = ["PATH [--data DIR [--repair]]"]
    let discussion = """
        Reads the Health app's "Export All Health Data" file as it is: export.zip (read in place, without
        unpacking), the unpacked apple_health_export folder, or export.xml itself, streaming it in constant
        memory. Every record becomes a sample of the durable store (the one 'healthflow demo' and 'healthflow
        sync' use; a new folder gets the disk-backed store, whose memory stays bounded whatever the export's
        size) with a UUID derived from its content, so importing the same export again adds nothing and a
        newer export adds only what is new; a correlation's members, which the export lists twice, are stored
        once. Samples are written in batches, each all-or-nothing: an interrupted import keeps whole batches,
        and running it again finishes it.
        On a terminal a progress bar shows the bytes read, records per second and the time left; otherwise a
        line is printed every few seconds. The summary lists the samples imported per type, the records skipped
        per reason (each with its line in import-skipped.tsv in the data folder), the types and elements the
        health model does not hold, and the time and throughput.
        """
    let options = [DataLocation.dataOption, DataLocation.repairOption]
    let operands = ["PATH"]
    let failsWhen = "the export is damaged or missing or the store cannot be opened"

    func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode {
        guard let path = arguments.operands.first?.description else {
            throw ArgumentError("missing PATH: export.zip, an apple_health_export folder or export.xml")
        }
        guard case .directory(let directory, let repair) = try DataLocation.parse(arguments) else {
            throw ArgumentError("import writes into a durable store: use --data DIR or the per-user folder")
        }
        do {
            try directory.makeFolders(mode: 0o700)
        } catch {
            Self.fail("cannot create the data folder \(directory): \(error)")
            return .failure
        }
        let opened: OpenedStore
        do throws(FileStoreError) {
            opened = try StoreOpening.open(directory, repair: repair)
        } catch {
            Self.fail("cannot open the store in \(directory): \(error)")
            for line in StoreOpening.hint(for: error, directory: directory) { Self.fail(line) }
            return .failure
        }
        defer { opened.close() }
        for warning in opened.warnings { print(warning) }
        AllocatorTuning.boundLargeBlocks()
        let skipReport = directory.appending("import-skipped.tsv").description
        let job = HealthExportImport(path: path, options: HealthExportOptions(skipReportPath: skipReport))
        let display = ImportProgressDisplay(isTerminal: isatty(STDOUT_FILENO) == 1)
        let watcher = Task {
            for await event in job.events {
                if case .progress(let bytes, let total, let imported, _) = event {
                    display.show(bytes: bytes, of: total, imported: imported)
                }
            }
        }
        // One snapshot at the end instead of automatic ones on the way, each of which would write the whole store.
        opened.takeAutomaticSnapshots(false)
        defer { opened.takeAutomaticSnapshots(true) }
        do {
            let report = try await job.run(into: opened.store)
            await watcher.value
            display.finish()
            // Settling makes the next open read the imported samples fastest; an import that added nothing leaves
            // the store as it was, so it settles nothing.
            do {
                if report.importedCount > 0 { try opened.settle() }
            } catch {
                // Nothing is lost: the journal or the log holds every imported sample, and the next open replays it.
                print(
                    "warning: the store's \(opened.settling) after the import failed (\(error)); \(opened.changeLog) "
                        + "keeps every sample")
            }
            ImportSummary.print(report, store: directory.description)
            return .success
        } catch {
            await watcher.value
            display.finish()
            Self.fail("\(error)")
            let held = job.stoppedReport?.heldMembersNotWritten ?? 0
            Self.fail(
                "samples written before the error are kept (whole batches)"
                    + (held > 0
                        ? "; \(held) blood-pressure and nutrition records read before it were not written (a "
                            + "correlation later in the export may list them)" : "")
                    + "; run the import again to resume")
            return .failure
        }
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data("healthflow import: \(message)\n".utf8))
    }
}
