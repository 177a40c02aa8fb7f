// A test helper, not a product: one upload with `HTTPTransport` to a server that never answers, measuring the CPU
// the whole process spends while the upload waits. A child process, so no other test's work is counted.
//
//     HTTPWaitProbe URL SECONDS [--streamed]
//
// The upload's whole-exchange deadline is SECONDS (its stall limit ten times that, so only the deadline ends it);
// the body is 2,000 bytes, sent with a Content-Length, or with --streamed 4,000,000 bytes streamed chunked. The
// probe prints one line, `cpu=C outcome=O`: C the user + system CPU seconds of this process (getrusage
// RUSAGE_SELF) from just before the upload started until its promise settled, O how it settled.

import FlowKit
import Foundation
import HealthSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let url = URL(string: arguments[0]), let seconds = Double(arguments[1]), seconds > 0
else {
    FileHandle.standardError.write(Data("usage: HTTPWaitProbe URL SECONDS [--streamed]\n".utf8))
    exit(2)
}
let streamed = arguments.dropFirst(2).contains("--streamed")
let deadline = Duration.milliseconds(Int64(seconds * 1000))
let transport = HTTPTransport(
    url: url, timeout: deadline, stallLimit: deadline * 10, dataThreshold: streamed ? 0 : 1 << 20)
let body = Data(repeating: 0x5A, count: streamed ? 4_000_000 : 2_000)
let request = UploadRequest(
    batchID: UUID(), contentType: "application/octet-stream", contentLength: Int64(body.count), fileExtension: "bin",
    body: streamed ? .stream { InputStream(data: body) } : .data(body))

/// The user + system CPU time this process has used so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

let before = processCPUSeconds()
let upload = Promise { try await transport.upload(request) }
let outcome: String
switch await upload.settled {
case .success(let receipt): outcome = "stored \(receipt.disposition)"
case .failure(let error): outcome = "\(error)"
}
let spent = processCPUSeconds() - before
print("cpu=\(spent) outcome=\(outcome)")
