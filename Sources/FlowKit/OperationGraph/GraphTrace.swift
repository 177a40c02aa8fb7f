/// What happened to each node of a graph run: when it started and ended, and how it ended.
///
/// Turn tracing on when you create the graph, run it, then read ``OperationGraph/trace``. Its ``timeline`` prints
/// as a table with a bar per node — a quick way to see what ran in parallel, what waited, and what never ran
/// because something before it failed.
///
/// Times are measured from the moment the graph started, with the graph's ``GraphClock``. Without tracing, the
/// outcomes are still recorded; only the times are `nil`.
public struct GraphTrace: Sendable, CustomStringConvertible {
    /// How a node ended (or where it is, while the graph runs).
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// Not started yet (or the graph has not started).
        case pending
        /// Its work is running now.
        case running
        /// Its work produced a value.
        case fulfilled
        /// Its work failed; the associated text describes the error.
        case failed(String)
        /// Its work was cancelled while running, or finished with `CancellationError`.
        case cancelled
        /// It never ran: an input failed, the graph failed or was cancelled, or nothing needed it any more.
        case skipped

        /// `fulfilled`, `failed`, `cancelled`, `skipped`, `running` or `pending`.
        public var description: String {
            switch self {
            case .pending: "pending"
            case .running: "running"
            case .fulfilled: "fulfilled"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .skipped: "skipped"
            }
        }
    }

    /// One node's record.
    public struct Entry: Sendable, Hashable {
        /// The node's index in its graph.
        public let index: Int
        /// The node's name.
        public let node: String
        /// When the node's work started, from the graph's start; `nil` if it never ran or tracing is off.
        public let start: Duration?
        /// When the node's work ended, from the graph's start; `nil` if it has not ended or tracing is off.
        public let end: Duration?
        /// How the node ended.
        public let outcome: Outcome

        /// Creates a record (for tests that build expected traces).
        ///
        /// - Parameters:
        ///   - index: The node's index.
        ///   - node: The node's name.
        ///   - start: When it started.
        ///   - end: When it ended.
        ///   - outcome: How it ended.
        public init(index: Int, node: String, start: Duration?, end: Duration?, outcome: Outcome) {
            self.index = index
            self.node = node
            self.start = start
            self.end = end
            self.outcome = outcome
        }

        /// How long the node's work took, when both times are known.
        public var duration: Duration? {
            guard let start, let end else { return nil }
            return end - start
        }
    }

    /// The graph's name.
    public let graph: String

    /// One record per node, in node order.
    public let entries: [Entry]

    /// Creates a trace (for tests that build expected traces).
    ///
    /// - Parameters:
    ///   - graph: The graph's name.
    ///   - entries: One record per node.
    public init(graph: String, entries: [Entry]) {
        self.graph = graph
        self.entries = entries
    }

    /// The trace as a table, one row per node ordered by start time (nodes that never ran last), with a bar
    /// showing when each ran; times in milliseconds.
    public var timeline: String {
        let rows = entries.sorted { lhs, rhs in
            switch (lhs.start, rhs.start) {
            case (let a?, let b?): a == b ? lhs.index < rhs.index : a < b
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.index < rhs.index
            }
        }
        let span = entries.compactMap { $0.end ?? $0.start }.max() ?? .zero
        let starts = rows.map { $0.start.map(milliseconds) ?? "-" }
        let ends = rows.map { $0.end.map(milliseconds) ?? "-" }
        let timeWidth = max(5, (starts + ends).map(\.count).max() ?? 0)
        let outcomeWidth = max(7, rows.map(\.outcome.description.count).max() ?? 0)

        var lines = ["Trace of \"\(graph)\": \(entries.count) \(entries.count == 1 ? "node" : "nodes")\(summary)"]
        lines.append(
            "\(pad("start", timeWidth))  \(pad("end", timeWidth))  \(pad("timeline", barWidth + 2, left: true))"
                + "  \(pad("outcome", outcomeWidth, left: true))  node")
        for (row, entry) in rows.enumerated() {
            var line = "\(pad(starts[row], timeWidth))  \(pad(ends[row], timeWidth))  [\(bar(entry, span))]"
            line += "  \(pad(entry.outcome.description, outcomeWidth, left: true))  \(entry.node)"
            if case .failed(let reason) = entry.outcome, !reason.isEmpty { line += ": \(reason)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The ``timeline``.
    public var description: String {
        timeline
    }

    private var summary: String {
        var counts: [String: Int] = [:]
        for entry in entries { counts[entry.outcome.description, default: 0] += 1 }
        let parts = ["fulfilled", "failed", "cancelled", "skipped", "running", "pending"].compactMap { name in
            counts[name].map { "\($0) \(name)" }
        }
        return parts.isEmpty ? "" : " — " + parts.joined(separator: ", ")
    }

    private var barWidth: Int { 24 }

    private func bar(_ entry: Entry, _ span: Duration) -> String {
        guard let start = entry.start, span > .zero else { return String(repeating: " ", count: barWidth) }
        let end = entry.end ?? span
        let from = min(barWidth - 1, Int((start / span) * Double(barWidth)))
        let through = max(from + 1, min(barWidth, Int(((end / span) * Double(barWidth)).rounded(.up))))
        return String(repeating: " ", count: from) + String(repeating: "#", count: through - from)
            + String(repeating: " ", count: barWidth - through)
    }
}

/// `1.250 ms`: microsecond resolution, no locale.
private func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let sign = microseconds < 0 ? "-" : ""
    let magnitude = microseconds.magnitude
    let fraction = String(magnitude % 1000)
    return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
}

private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}
