import Foundation
import HealthFlow

/// Reads a route file of an export (`workout-routes/route_….gpx`, GPX 1.1 as the Health app writes it) in one
/// pass over its bytes, without building a document: each `<trkpt lat="…" lon="…">` with its `<ele>`, `<time>`
/// and the `<extensions>` Apple writes (`<speed>`, `<course>`, `<hAcc>`, `<vAcc>`) becomes a
/// ``HealthWorkoutRoute/Location``; a field Apple leaves out is "not known" (-1; altitude 0). The track points of
/// a file, in file order, are one route.
///
/// ```xml
/// <trkpt lon="13.376367" lat="52.518950"><ele>38.5</ele><time>2020-07-18T17:16:54Z</time>
///  <extensions><speed>2.61</speed><course>121.5</course><hAcc>4.62</hAcc><vAcc>3.21</vAcc></extensions></trkpt>
/// ```
enum WorkoutRouteGPX {
    /// Why a file is not a route, with the 1-based line of the problem.
    struct Problem: Error {
        let line: Int
        let detail: String
    }

    /// The route in `bytes`.
    ///
    /// - Throws: ``Problem`` for a file that is not GPX, has no track point, or a point without its latitude,
    ///   longitude or time, with a value that is not a number or not a UTC timestamp, cut short, or breaking the
    ///   route rules (``HealthWorkoutRoute/init(locations:)``).
    /// - Complexity: O(n) in the file's size.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> HealthWorkoutRoute {
        var scanner = Scanner(bytes: bytes)
        guard scanner.find("<gpx") != nil else { throw Problem(line: 1, detail: "no <gpx> element: not a GPX file") }
        var locations: [HealthWorkoutRoute.Location] = []
        while let start = scanner.find("<trkpt") {
            guard let tagEnd = scanner.find(">") else {
                throw Problem(line: scanner.line(at: start), detail: "a <trkpt> tag is cut short")
            }
            let attributes = scanner.text(start + 6..<tagEnd)
            var fields: [String: String] = [:]
            if bytes[tagEnd - 1] != UInt8(ascii: "/") {
                guard let close = scanner.find("</trkpt>") else {
                    throw Problem(line: scanner.line(at: start), detail: "a <trkpt> is not closed")
                }
                fields = Self.children(bytes, tagEnd + 1..<close)
            }
            let found = scanner
            locations.append(try location(attributes: attributes, fields: fields) { found.line(at: start) })
        }
        guard !locations.isEmpty else { throw Problem(line: scanner.line(at: bytes.count), detail: "no track point") }
        do {
            return try HealthWorkoutRoute(locations: locations)
        } catch {
            throw Problem(line: 1, detail: error.description)
        }
    }

    /// One track point; `line` (counted only for an error) gives its line.
    private static func location(attributes: String, fields: [String: String], line: () -> Int) throws(Problem)
        -> HealthWorkoutRoute.Location
    {
        func attribute(_ name: String) -> String? {
            guard let range = attributes.range(of: " \(name)=\"") ?? attributes.range(of: "\t\(name)=\"") else {
                return nil
            }
            let rest = attributes[range.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        func number(_ text: String?, _ name: String, default fallback: Double?) throws(Problem) -> Double {
            guard let text else {
                guard let fallback else { throw Problem(line: line(), detail: "a track point has no \(name)") }
                return fallback
            }
            guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite else {
                throw Problem(line: line(), detail: "\(name) \"\(text)\" is not a number")
            }
            return value
        }
        guard let timeText = fields["time"] else { throw Problem(line: line(), detail: "a track point has no time") }
        guard let time = timestamp(timeText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Problem(line: line(), detail: "time \"\(timeText)\" is not an ISO 8601 timestamp")
        }
        return HealthWorkoutRoute.Location(
            timestamp: time, latitude: try number(attribute("lat"), "lat", default: nil),
            longitude: try number(attribute("lon"), "lon", default: nil),
            altitude: try number(fields["ele"], "ele", default: 0),
            speed: try number(fields["speed"], "speed", default: -1),
            course: try number(fields["course"], "course", default: -1),
            horizontalAccuracy: try number(fields["hAcc"], "hAcc", default: -1),
            verticalAccuracy: try number(fields["vAcc"], "vAcc", default: -1))
    }

    /// The text of each leaf element in `range` by name (`ele`, `time`, and inside `<extensions>`, `speed`…).
    private static func children(_ bytes: [UInt8], _ range: Range<Int>) -> [String: String] {
        var fields: [String: String] = [:]
        var position = range.lowerBound
        while position < range.upperBound {
            guard bytes[position] == UInt8(ascii: "<") else {
                position += 1
                continue
            }
            var nameEnd = position + 1
            while nameEnd < range.upperBound, bytes[nameEnd] != UInt8(ascii: ">"), bytes[nameEnd] != UInt8(ascii: " ") {
                nameEnd += 1
            }
            guard nameEnd < range.upperBound, bytes[position + 1] != UInt8(ascii: "/") else {
                position = nameEnd + 1
                continue
            }
            let name = String(decoding: bytes[(position + 1)..<nameEnd], as: UTF8.self)
            var textEnd = nameEnd
            while textEnd < range.upperBound, bytes[textEnd] != UInt8(ascii: ">") { textEnd += 1 }
            let textStart = textEnd + 1
            var close = textStart
            while close < range.upperBound, bytes[close] != UInt8(ascii: "<") { close += 1 }
            if close < range.upperBound, close + 1 < range.upperBound, bytes[close + 1] == UInt8(ascii: "/") {
                fields[name] = String(decoding: bytes[textStart..<close], as: UTF8.self)
            }
            position = close
        }
        return fields
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` as a date; `nil` for anything else.
    static func timestamp(_ text: String) -> Date? {
        let utf8 = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= utf8.count else { return nil }
            var value = 0
            for byte in utf8[start..<(start + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard utf8.count >= 20, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            utf8[10] == UInt8(ascii: "T"), utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
            let minute = digits(14, 2), let second = digits(17, 2), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var position = 19
        var fraction = 0.0
        if utf8[position] == UInt8(ascii: ".") {
            var scale = 0.1
            position += 1
            while position < utf8.count, utf8[position] >= 48, utf8[position] <= 57 {
                fraction += Double(utf8[position] - 48) * scale
                scale /= 10
                position += 1
            }
        }
        var offset = 0
        guard position < utf8.count else { return nil }
        switch utf8[position] {
        case UInt8(ascii: "Z") where position + 1 == utf8.count:
            break
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard position + 6 == utf8.count, utf8[position + 3] == UInt8(ascii: ":"),
                let hours = digits(position + 1, 2), let minutes = digits(position + 4, 2)
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (utf8[position] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// A forward search over the file's bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        /// The offset of the next `needle` at or after the position, moving past it; `nil` (position at the end)
        /// when there is none.
        mutating func find(_ needle: StaticString) -> Int? {
            let pattern = needle.withUTF8Buffer { Array($0) }
            guard let first = pattern.first else { return nil }
            var index = position
            while index + pattern.count <= bytes.count {
                if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                    position = index + pattern.count
                    return index
                }
                index += 1
            }
            position = bytes.count
            return nil
        }

        func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }

        /// The 1-based line of `offset`.
        func line(at offset: Int) -> Int {
            bytes[..<min(offset, bytes.count)].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        }
    }
}
