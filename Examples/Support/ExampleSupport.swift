import FlowKit
import Foundation
import HealthFlow

/// The three styles every example is written in.
public enum ExampleStyle: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The original nested completion handlers.
    case callback
    /// One FlowKit promise chain with a single `catch`.
    case promise
    /// async/await with one `do`/`catch`.
    case async

    /// The style's name, as the command line spells it.
    public var description: String { rawValue }
}

/// Everything an example runs against: a store, the app's source, and a fixed "now" so runs are repeatable.
public struct ExampleContext: Sendable {
    /// The health store.
    public let store: any HealthStore
    /// The source stamped on the samples the example saves.
    public let source: HealthSource
    /// The moment the example treats as now.
    public let now: Date
    /// A private folder the example may write to (an outbox, say); created on first use.
    public let workDirectory: URL

    /// A context from its parts.
    ///
    /// - Parameters:
    ///   - store: The health store.
    ///   - source: The app's source.
    ///   - now: The moment treated as now.
    ///   - workDirectory: A folder the example may write to; a fresh temporary one by default.
    public init(
        store: any HealthStore, source: HealthSource, now: Date,
        workDirectory: URL = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthflow-example-\(UUID().uuidString)", isDirectory: true)
    ) {
        self.store = store
        self.source = source
        self.now = now
        self.workDirectory = workDirectory
    }

    /// The app every example plays: it may read and write health data.
    public static let app = HealthAppConfiguration(
        bundleIdentifier: "dev.healthflow.examples", name: "HealthFlow Examples",
        healthShareUsageDescription: "Shows your measurements.",
        healthUpdateUsageDescription: "Records the measurements you enter.")

    /// A fresh embedded in-memory store answered by `policy`, at a fixed "now" (2026-11-20 09:00 UTC).
    ///
    /// - Parameter policy: Who answers the permission sheet.
    /// - Returns: The context.
    public static func embedded(policy: AuthorizationPolicy = .grantAll) -> ExampleContext {
        let store = InMemoryHealthStore(configuration: app, policy: policy)
        return ExampleContext(store: store, source: app.source, now: fixedNow)
    }

    /// 2026-11-20 09:00:00 UTC, the examples' repeatable "now".
    public static let fixedNow = Date(timeIntervalSince1970: 1_795_165_200)
}

/// What one run of an example produced: its printed lines, or the error it ended with — comparable, so tests
/// can assert that the three styles agree.
public enum ExampleOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The lines the example printed.
    case lines([String])
    /// The error it ended with, as its description (errors are compared by what they say).
    case failure(String)

    /// Wraps a result.
    ///
    /// - Parameter result: The lines or the error.
    public init(_ result: Result<[String], any Error>) {
        switch result {
        case .success(let lines): self = .lines(lines)
        case .failure(let error): self = .failure(String(describing: error))
        }
    }

    /// The lines, or `error: …`.
    public var description: String {
        switch self {
        case .lines(let lines): lines.joined(separator: "\n")
        case .failure(let message): "error: \(message)"
        }
    }
}

/// A runnable example: a name, a one-line summary, and one entry point that runs any of the three styles.
public protocol HealthExample: Sendable {
    /// The command-line name, such as `write-height`.
    static var name: String { get }
    /// What the example shows, in one line.
    static var summary: String { get }
    /// Runs the example in `style` against `context`.
    static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome
    /// Puts whatever the example expects into a fresh store (nothing, for most); run once per store.
    static func prepare(_ context: ExampleContext) async throws
}

/// An example whose flow is also written as an ``FlowKit/OperationChain``: its lesson draws that chain
/// (`graph.mermaid`), and the tests run it beside the three styles, so the picture is of code that runs and does
/// what the styles do.
public protocol DrawnExample: HealthExample {
    /// The example's flow as a chain on `queue`, not started: the steps its promise style takes, one node each.
    ///
    /// - Throws: What preparing the flow's resources throws (an outbox folder that cannot be made).
    static func flow(in context: ExampleContext, on queue: OperationQueue) throws -> OperationChain<[String]>
}

extension HealthExample {
    /// The example's folder under `Examples/` (and its module's name without `Example`): `WriteHeight`.
    public static var folder: String {
        let type = String(describing: self)
        return type.hasSuffix("Example") ? String(type.dropLast("Example".count)) : type
    }

    /// The file that holds `style`'s port, relative to the package root.
    public static func sourcePath(of style: ExampleStyle) -> String {
        "Examples/\(folder)/\(folder)+\(style.rawValue.prefix(1).uppercased() + style.rawValue.dropFirst()).swift"
    }

    /// The example's lesson, relative to the package root.
    public static var lessonPath: String { "Examples/\(folder)/LESSON.md" }

    /// Most examples need nothing in the store beforehand.
    public static func prepare(_ context: ExampleContext) async throws {}

    /// Runs a callback-style entry point and waits for its one completion.
    ///
    /// - Parameter start: Starts the work and calls the completion once.
    /// - Returns: The outcome the completion reported.
    public static func awaitCallback(
        _ start: (@escaping @Sendable (Result<[String], any Error>) -> Void) -> Void
    ) async -> ExampleOutcome {
        let result = await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
        return ExampleOutcome(result)
    }

    /// Runs a promise-style entry point and waits for it to settle.
    ///
    /// - Parameter promise: The example's promise.
    /// - Returns: Its outcome.
    public static func awaitPromise(_ promise: Promise<[String]>) async -> ExampleOutcome {
        ExampleOutcome(await promise.settled)
    }

    /// Runs an async entry point.
    ///
    /// - Parameter body: The example's async function.
    /// - Returns: Its outcome.
    public static func awaitAsync(_ body: () async throws -> [String]) async -> ExampleOutcome {
        do { return .lines(try await body()) } catch { return .failure(String(describing: error)) }
    }
}

/// The examples' calendar: Gregorian in UTC, so every machine prints the same days.
public let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
}()

/// Formats a date as `2026-11-20` in UTC, so examples print the same text everywhere.
///
/// - Parameter date: The date.
/// - Returns: The day.
public func formatDay(_ date: Date) -> String {
    let parts = utcCalendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
}
