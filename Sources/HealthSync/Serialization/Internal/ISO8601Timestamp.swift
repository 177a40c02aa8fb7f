import Foundation

/// Formats dates as ISO 8601 / RFC 3339 timestamps with a numeric offset, without `DateFormatter`
/// (thread-safe, allocation-light, identical on every platform).
///
/// `2026-11-20T09:00:00+00:00`; a date with a sub-second part gets milliseconds: `2026-11-20T09:00:00.250+01:00`.
enum ISO8601Timestamp {
    /// The timestamp for `date` in `timeZone`, or `nil` when the date is not finite or outside years 0...9999.
    static func string(for date: Date, in timeZone: TimeZone) -> String? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return nil }
        let totalMilliseconds = (interval * 1000).rounded()
        // Years 0...9999 only: four-digit years keep the format fixed-width.
        guard totalMilliseconds > -62_167_219_200_000, totalMilliseconds < 253_402_300_800_000 else { return nil }
        let offset = timeZone.secondsFromGMT(for: date)
        let milliseconds = Int64(totalMilliseconds) + Int64(offset) * 1000
        let (seconds, millisecond) = floorDivide(milliseconds, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else { return nil }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if millisecond != 0 { text += "." + pad(millisecond, 3) }
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset) / 60
        text += sign + pad(Int64(magnitude / 60), 2) + ":" + pad(Int64(magnitude % 60), 2)
        return text
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to a proleptic Gregorian date.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
