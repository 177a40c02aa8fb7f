import Foundation

/// A date as export.xml writes it — `2019-07-19 10:36:11 -0700` — parsed by hand, the same in every locale
/// and time zone (no formatter).
struct ExportDate: Hashable, Sendable {
    let date: Date
    /// The UTC offset written after the time, in seconds east of UTC.
    let utcOffset: Int

    /// The offset as written: `+HHMM` or `-HHMM`.
    var offsetText: String {
        let minutes = abs(utcOffset) / 60
        func digit(_ value: Int) -> UInt8 { UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10) }
        // Five ASCII bytes: a string stored inline, made without concatenating four others.
        return String(unsafeUninitializedCapacity: 5) { text in
            text[0] = utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            (text[1], text[2]) = (digit(minutes / 600), digit(minutes / 60))
            (text[3], text[4]) = (digit(minutes % 60 / 10), digit(minutes % 60))
            return 5
        }
    }

    init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
        (date, utcOffset) = parsed
    }

    /// The date whose UTF-8 text is `bytes`.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let parsed = Self.parse(bytes) else { return nil }
        (date, utcOffset) = parsed
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> (date: Date, utcOffset: Int)? {
        guard bytes.count == 25, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: " "), bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2),
            let day = number(bytes, 8, 2), let hour = number(bytes, 11, 2),
            let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
            let offsetHours = number(bytes, 21, 2), let offsetMinutes = number(bytes, 23, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
            minute < 60, second < 61, offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[20] == UInt8(ascii: "-") ? -1 : 1)
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return (Date(timeIntervalSince1970: TimeInterval(seconds)), offset)
    }

    /// A calendar day `YYYY-MM-DD` (the `ActivitySummary` and `Me` form) as year, month, day.
    static func day(_ text: String) -> (year: Int, month: Int, day: Int)? {
        var text = text
        return text.withUTF8 { parseDay(UnsafeRawBufferPointer($0)) }
    }

    private static func parseDay(_ bytes: UnsafeRawBufferPointer) -> (year: Int, month: Int, day: Int)? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return (year, month, day)
    }

    private static func number(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
