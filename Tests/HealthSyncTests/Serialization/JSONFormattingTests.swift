import Foundation
import HealthFlow
import Testing

@testable import HealthSync

/// The batch writer formats timestamps, numbers and UUIDs by hand, straight into its buffer. These tests hold
/// that output byte for byte to Foundation's formatters and to the `String`-based rules the schema states.
@Suite struct JSONFormattingTests {
    /// Foundation's formatting of the same timestamp (ICU): `uuuu` is the proleptic year, so a year below 1000
    /// gets its leading zeros. ICU switches to the Julian calendar before 1582-10-15, so only later dates compare.
    static func foundationTimestamp(_ date: Date, in timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        formatter.dateFormat = whole ? "uuuu-MM-dd'T'HH:mm:ssxxxxx" : "uuuu-MM-dd'T'HH:mm:ss.SSSxxxxx"
        return formatter.string(from: date)
    }

    /// The timestamp rule spelled with `String`s: the date rounded to the millisecond, then the civil date of
    /// the offset-shifted milliseconds, the `.mmm` part only when not zero, `±HH:MM`.
    static func stringTimestamp(_ date: Date, offset: Int) -> String? {
        let total = (date.timeIntervalSince1970 * 1000).rounded()
        guard total.isFinite, total > -62_167_219_200_000, total < 253_402_300_800_000 else { return nil }
        let local = Int64(total) + Int64(offset) * 1000
        let millisecond = ((local % 1000) + 1000) % 1000
        let seconds = (local - millisecond) / 1000
        let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let days = (seconds - secondOfDay) / 86_400
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        // Foundation's calendar turns Julian before 1582: move the day by whole 400-year cycles (146,097 days,
        // which the Gregorian calendar repeats exactly) into 2000-03-01 ..< 2400-03-01, and the year back.
        let cycles = (days + 719_468).quotientRoundingDown(146_097) - 5
        let moved = days - cycles * 146_097
        let components = calendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: Double(moved) * 86_400))
        let year = components.year! + Int(cycles) * 400
        guard (0...9999).contains(year) else { return nil }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let second = Int(secondOfDay)
        var text = "\(pad(year, 4))-\(pad(components.month!, 2))-\(pad(components.day!, 2))"
        text += "T\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2))"
        if millisecond != 0 { text += "." + pad(Int(millisecond), 3) }
        let minutes = abs(offset) / 60
        return text + (offset < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }

    static let zones: [TimeZone] = [
        .gmt, TimeZone(secondsFromGMT: 5 * 3600 + 1800)!, TimeZone(secondsFromGMT: -8 * 3600)!,
        TimeZone(identifier: "America/New_York")!, TimeZone(identifier: "Australia/Lord_Howe")!,
        TimeZone(identifier: "Asia/Kathmandu")!, TimeZone(identifier: "America/St_Johns")!,
    ]

    /// Whole seconds and whole milliseconds from 1583 to 9999 in zones east and west, with and without DST.
    /// Offsets with a seconds part (local mean time before a zone's standard time, e.g. `+05:41:16`) are
    /// written in whole minutes (`+05:41`), as RFC 3339 requires, where Foundation writes the seconds: those
    /// dates are held to the rule by the other tests.
    @Test func timestampsMatchFoundationsFormatterFrom1583To9999() throws {
        var random = SeededRandomNumberGenerator(seed: 17)
        let first = -12_212_553_600.0 + 86_400  // 1583-01-02
        let last = 253_402_300_799.0 - 86_400  // 9999-12-30
        var compared = 0
        for round in 0..<6_000 {
            let seconds = random.uniform(in: first...last).rounded(.down)
            let milliseconds = round.isMultiple(of: 2) ? 0 : Double(random.int(in: 1...999))
            let date = Date(timeIntervalSince1970: seconds + milliseconds / 1000)
            let zone = Self.zones[round % Self.zones.count]
            guard zone.secondsFromGMT(for: date).isMultiple(of: 60) else { continue }
            let ours = try #require(ISO8601Timestamp.string(for: date, in: zone))
            #expect(ours == Self.foundationTimestamp(date, in: zone), "\(date.timeIntervalSince1970) in \(zone)")
            compared += 1
        }
        #expect(compared > 5_000)
    }

    @Test func timestampsAtCalendarEdgesMatchTheRule() throws {
        let edges: [Double] = [
            0, -1, 1, -0.0005, 0.0005, 0.0004999, 0.9995, 0.9994999, -0.0004, 59.9996, 86_399.9995,
            951_782_400,  // 2000-02-29
            951_868_800,  // 2000-03-01
            -2_203_891_200,  // 1900-03-01 (1900 is not a leap year)
            13_574_563_200,  // 2400-02-29
            1_704_067_199.999, 1_704_067_200,  // 2023 → 2024
            -62_167_219_200,  // 0000-01-01T00:00:00
            -62_167_219_200.0005,  // rounds to the first millisecond of year 0
            -62_167_219_200.001,  // year -1: none
            -30_610_224_000,  // 1000-01-01
            -30_610_224_000.001,  // 0999-12-31T23:59:59.999
            253_402_300_799.999,  // 9999-12-31T23:59:59.999
            253_402_300_799.9995,  // rounds into year 10000: none
            253_402_300_800,
        ]
        for zone in Self.zones {
            for interval in edges {
                let date = Date(timeIntervalSince1970: interval)
                let offset = zone.secondsFromGMT(for: date)
                #expect(
                    ISO8601Timestamp.string(for: date, in: zone) == Self.stringTimestamp(date, offset: offset),
                    "\(interval) in \(zone)")
            }
        }
        #expect(
            ISO8601Timestamp.string(for: Date(timeIntervalSince1970: 0.9995), in: .gmt) == "1970-01-01T00:00:01+00:00")
        #expect(
            ISO8601Timestamp.string(for: Date(timeIntervalSince1970: -0.001), in: .gmt)
                == "1969-12-31T23:59:59.999+00:00")
        let negative = try #require(TimeZone(secondsFromGMT: -(3 * 3600 + 30 * 60)))
        #expect(
            ISO8601Timestamp.string(for: Date(timeIntervalSince1970: 0), in: negative) == "1969-12-31T20:30:00-03:30")
        #expect(
            ISO8601Timestamp.string(for: Date(timeIntervalSince1970: -30_610_224_000.001), in: .gmt)
                == "0999-12-31T23:59:59.999+00:00")
        #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: .nan), in: .gmt) == nil)
        #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: 253_402_300_800), in: .gmt) == nil)
        #expect(ISO8601Timestamp.string(for: Date(timeIntervalSince1970: -.infinity), in: .gmt) == nil)
    }

    /// Random instants at any sub-millisecond fraction across years 0...9999 (and just outside), in every zone.
    @Test func randomTimestampsMatchTheRuleIncludingRounding() {
        var random = SeededRandomNumberGenerator(seed: 2026)
        for round in 0..<20_000 {
            let interval = random.uniform(in: -62_200_000_000...253_500_000_000)
            let date = Date(timeIntervalSince1970: interval)
            let zone = Self.zones[round % Self.zones.count]
            #expect(
                ISO8601Timestamp.string(for: date, in: zone)
                    == Self.stringTimestamp(date, offset: zone.secondsFromGMT(for: date)), "\(interval) in \(zone)")
        }
    }

    /// Emits values through a `JSONEmitter` with a 64-byte buffer (so values straddle flushes) and returns the
    /// bytes as text.
    static func emitted(_ emit: (inout JSONEmitter) throws -> Void) throws -> String {
        var bytes: [UInt8] = []
        var emitter = JSONEmitter(chunkSize: 64) { bytes.append(contentsOf: $0) }
        try emit(&emitter)
        try emitter.flush()
        #expect(emitter.byteCount == Int64(bytes.count))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The schema's number rule with `String`s: integral values below 2^53 as `Int64`, others in `description`.
    static func stringNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 9_007_199_254_740_992 ? String(Int64(value)) : value.description
    }

    @Test func numbersMatchTheStringRuleOverEdgesAndRandomBitPatterns() throws {
        var values: [Double] = [
            0, -0.0, 1, -1, 72, 36.6, 0.1, 1e-5, -1e-5, 1e21, 1e22, 123_456_789.125, 9_007_199_254_740_991,
            9_007_199_254_740_992, -9_007_199_254_740_992, 9_007_199_254_740_993.0, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, -.leastNonzeroMagnitude,
            0.5, -0.5, 1.5, 2.5, 1e15, 1e16, 1e17, 99_999_999_999_999.9,
        ]
        var random = SeededRandomNumberGenerator(seed: 53)
        while values.count < 20_000 {
            let value = Double(bitPattern: random.next())
            if value.isFinite { values.append(value) }
            values.append(Double(random.int(in: -1_000_000_000...1_000_000_000)) / 100)
        }
        let text = try Self.emitted { emitter in
            for value in values {
                try emitter.number(value, field: "v")
                try emitter.byte(UInt8(ascii: ","))
            }
        }
        #expect(text == values.map { Self.stringNumber($0) + "," }.joined())
    }

    @Test func nonFiniteNumbersAreRejectedWithTheirField() throws {
        for value in [Double.nan, .infinity, -.infinity, .signalingNaN] {
            #expect(throws: SyncSerializationError.nonFiniteNumber(field: "samples[].value")) {
                _ = try Self.emitted { try $0.number(value, field: "samples[].value") }
            }
        }
    }

    @Test func integersAndUUIDsMatchStringAndUUIDString() throws {
        var random = SeededRandomNumberGenerator(seed: 8)
        var integers = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        for _ in 0..<5_000 { integers.append(Int(truncatingIfNeeded: random.next() >> random.int(in: 0...63))) }
        integers += integers.map { 0 &- $0 }
        let uuids =
            (0..<2_000).map { _ in random.nextUUID() } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        let text = try Self.emitted { emitter in
            for integer in integers { try emitter.integer(integer) }
            for uuid in uuids { try emitter.uuid(uuid) }
        }
        #expect(text == integers.map(String.init).joined() + uuids.map { "\"\($0.uuidString)\"" }.joined())
    }
}

extension Int64 {
    fileprivate func quotientRoundingDown(_ divisor: Int64) -> Int64 {
        (self - ((self % divisor) + divisor) % divisor) / divisor
    }
}
