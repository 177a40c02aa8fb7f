import Foundation
import Testing

/// Waiting for a server costs (almost) no CPU: the `HTTPWaitProbe` child uploads to a server that accepts and never
/// answers — straight away, or after a 307 to the same URL — until the transport's 3 s deadline ends the attempt,
/// and reports the CPU its whole process used meanwhile (getrusage, user + system). The goal is under 1% of one
/// core; the test allows 3% (90 ms over the 3 s wait) so that a loaded machine, the thread start and the body's
/// few sends never make it flaky, and still fails by far for a client that polls or spins (URLSession's wait,
/// measured here with this probe: 2.8–2.9 s of CPU per 3 s). A child process, so no other test's work is counted; bounded by its deadline and a 60 s kill.
@Suite(
    .serialized, .timeLimit(.minutes(10)),
    .disabled(if: sanitizedBuild, "measures CPU, which a sanitizer's instrumentation and runtime thread add to"))
struct HTTPWaitCostTests {
    static let wait = 3.0

    @Test(arguments: ["hang", "redirect-then-hang"], [false, true])
    func waitingForAServerThatNeverAnswersCostsUnderThreePercentOfACore(path: String, streamed: Bool)
        async throws
    {
        try await withHTTPTestServer { (server: HTTPTestServer) async throws -> Void in
            let outcome = try await ProbeProcess.run(
                "HTTPWaitProbe",
                arguments: [server.url(path).absoluteString, String(Self.wait)] + (streamed ? ["--streamed"] : []),
                timeout: 60)

            let line = try #require(outcome.lines.last, "no line from the probe: \(outcome.errors)")
            #expect(line.hasSuffix("outcome=the server did not answer within 3.0 s"), "\(line)")
            let cpu = try #require(line.split(separator: " ").first.flatMap { Double($0.dropFirst(4)) }, "\(line)")
            #expect(cpu < Self.wait * 0.03, "\(line): \(cpu / Self.wait * 100)% of one core while waiting")
        }
    }
}

/// Whether this is a sanitizer build (compiled with `-DHEALTHFLOW_SANITIZER`, as CI's sanitizer runs are).
#if HEALTHFLOW_SANITIZER
    private let sanitizedBuild = true
#else
    private let sanitizedBuild = false
#endif
