import FlowKit
import Foundation

/// The import's progress: a bar redrawn in place on a terminal (bytes read of total, records per second, time
/// left), or a plain line every few seconds when the output is a file or a pipe.
final class ImportProgressDisplay: Sendable {
    private struct State {
        var lastShown: ContinuousClock.Instant?
        var drewBar = false
    }

    private let isTerminal: Bool
    private let started = ContinuousClock.now
    private let state = LockedState(State())

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    func show(bytes: Int64, of total: Int64, imported: Int) {
        let now = ContinuousClock.now
        let interval: Duration = isTerminal ? .milliseconds(100) : .seconds(5)
        let due = state.withLock { state in
            if let last = state.lastShown, now - last < interval { return false }
            state.lastShown = now
            state.drewBar = isTerminal
            return true
        }
        guard due else { return }
        let elapsed = Self.seconds(now - started)
        let fraction = total > 0 ? min(1, Double(bytes) / Double(total)) : 0
        let rate = elapsed > 0 ? Double(imported) / elapsed : 0
        let remaining = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
        let numbers =
            "\(Self.megabytes(bytes)) of \(Self.megabytes(total)), \(grouped(Int(rate))) records/s, "
            + "ETA \(Self.clock(remaining))"
        if isTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileHandle.standardOutput.write(
                Data("\r[\(bar)] \(String(format: "%3.0f", fraction * 100))% \(numbers)\u{1B}[K".utf8))
        } else {
            print("read \(String(format: "%.0f", fraction * 100))%: \(numbers)")
        }
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        if state.withLock({ $0.drewBar }) { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    private static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
