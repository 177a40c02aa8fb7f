import Foundation
import ProductSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tests' child processes (`ChildProcess`): a child holds nothing of the test process but its standard
/// descriptors, so one child's end is seen while others started at the same moment live on; it starts with no
/// signal blocked or ignored; and how it ended, what it printed and what it was given arrive as asked.
@Suite(.timeLimit(.minutes(10)))
struct ChildProcessTests {
    #if os(Linux)
        /// A descriptor left open without close-on-exec (as Foundation's `Pipe` and plain `open` make them) is
        /// not inherited: the child lists its own descriptors and finds 0, 1, 2 and the listing's own.
        @Test func aChildHoldsOnlyItsThreeStandardDescriptors() throws {
            let stray = open("/dev/null", O_RDONLY)
            #expect(stray > 2)
            defer { close(stray) }
            let pipe = Pipe()
            let finished = try ChildProcess.run(URL(fileURLWithPath: "/bin/ls"), arguments: ["/proc/self/fd"])
            #expect(finished.termination == .exited(0), "\(finished.errorsText)")
            #expect(finished.outputText.split(separator: "\n") == ["0", "1", "2", "3"], "\(finished.outputText)")
            #expect(pipe.fileHandleForWriting.fileDescriptor > 2)
        }

        /// Whatever the starting thread blocks, the child blocks and ignores nothing (a blocked SIGTERM would make
        /// a server deaf to its test's stop).
        @Test func aChildStartsWithNoSignalBlockedOrIgnored() async throws {
            let status = try await onOwnThread {
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGTERM)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                return try ChildProcess.run(URL(fileURLWithPath: "/bin/cat"), arguments: ["/proc/self/status"])
            }
            let masks = Dictionary(
                uniqueKeysWithValues: status.outputText.split(separator: "\n").compactMap { line -> (String, UInt64)? in
                    let fields = line.split(separator: ":")
                    guard fields.count == 2,
                        let mask = UInt64(fields[1].trimmingCharacters(in: .whitespaces), radix: 16)
                    else { return nil }
                    return (String(fields[0]), mask)
                })
            // Signals 1-31; 32 and 33 are glibc's own (thread cancellation and set*id), not an application's.
            let standard: UInt64 = 0x7FFF_FFFF
            #expect(masks["SigBlk"].map { $0 & standard } == 0, "\(status.outputText)")
            #expect(masks["SigIgn"].map { $0 & standard } == 0, "\(status.outputText)")
        }
    #endif

    /// The failure that stalled a whole `swift test` for ten minutes, repeated: long-lived children started from
    /// another thread while short ones start and end here. Each short child's end and end of output must be seen
    /// at once, so all the long ones are still alive when the last short one has been waited for.
    @Test func aChildsEndIsSeenWhileChildrenStartedAlongsideLiveOn() async throws {
        let rounds = 100
        let sleeper = URL(fileURLWithPath: "/bin/sleep")
        async let longLived = onOwnThread {
            try (0..<rounds).map { _ in try ChildProcess.launch(sleeper, arguments: ["120"], output: .pipe) }
        }
        let short = try await onOwnThread {
            try (0..<rounds).map { _ in try ChildProcess.run(URL(fileURLWithPath: "/bin/echo"), arguments: ["done"]) }
        }
        let sleepers = try await longLived
        let stillRunning = sleepers.filter(\.isRunning).count
        for child in sleepers { child.signal(SIGKILL) }
        for child in sleepers { #expect(await child.exit() == .signalled(SIGKILL)) }
        #expect(short.allSatisfy { $0.termination == .exited(0) && $0.outputText == "done\n" })
        #expect(stillRunning == rounds, "a short child's end waited for a long-lived one")
    }

    @Test func theTerminationSaysHowTheChildEnded() async throws {
        let shell = URL(fileURLWithPath: "/bin/sh")
        let exited = try ChildProcess.launch(shell, arguments: ["-c", "exit 3"], output: .discarded)
        #expect(await exited.exit() == .exited(3))
        #expect(exited.wait() == .exited(3), "waiting again gives the same end")
        #expect(!exited.signal(SIGKILL), "no signal goes to a child that has ended")
        let killed = try ChildProcess.launch(shell, arguments: ["-c", "kill -9 $$"], output: .discarded)
        #expect(await killed.exit() == .signalled(SIGKILL))
        #expect(killed.wait().isSignal && killed.wait().status == SIGKILL)
    }

    @Test func aChildPastItsTimeIsKilledAndSaysSo() throws {
        let finished = try ChildProcess.run(URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], timeout: 0.2)
        #expect(finished.timedOut)
        #expect(finished.termination == .signalled(SIGKILL))
    }

    @Test func inputOutputErrorsAndFolderArriveAsGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = "cat; pwd; echo oops >&2"
        let child = try ChildProcess.launch(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], directory: folder, input: .pipe,
            output: .pipe, errors: .pipe)
        try child.input?.write(contentsOf: Data("given\n".utf8))
        try child.input?.close()
        let finished = child.finish()
        #expect(finished.termination == .exited(0))
        let real = folder.resolvingSymlinksInPath().path
        #expect(finished.outputText == "given\n\(real)\n")
        #expect(finished.errorsText == "oops\n")

        let log = folder.appendingPathComponent("log")
        let both = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo one; echo two >&2; echo three"],
            output: .file(log), errors: .standardOutput)
        #expect(both.termination == .exited(0) && both.output.isEmpty)
        #expect(try String(contentsOf: log, encoding: .utf8) == "one\ntwo\nthree\n")
    }

    @Test func anExecutableThatIsNotThereIsATypedError() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/healthflow-child")
        let error = #expect(throws: ChildProcessError.self) { try ChildProcess.run(missing) }
        #expect("\(try #require(error))" == "cannot start /nonexistent/healthflow-child: No such file or directory")
    }
}
