import Foundation

/// Formats dates as ISO 8601 / RFC 3339 timestamps with a numeric offset, without `DateFormatter`
/// (thread-safe, allocation-free, identical on every platform).
///
/// `2026-11-20T09:00:00+00:00`; a date with a sub-second part gets milliseconds: `2026-11-20T09:00:00.250+01:00`.
/// The date is first rounded to the nearest millisecond (halves away from zero), so `.9996` s carries into the
/// next second. Years 0...9999 only (proleptic Gregorian), which keeps the format fixed-width.
enum ISO8601Timestamp {
    /// The longest timestamp in bytes: `YYYY-MM-DDTHH:MM:SS.mmm+HH:MM`.
    static let longest = 29

    /// The timestamp for `date` in `timeZone`, or `nil` when the date is not finite or outside years 0...9999.
    static func string(for date: Date, in timeZone: TimeZone) -> String? {
        guard date.timeIntervalSince1970.isFinite else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longest) { buffer -> String? in
            guard let base = buffer.baseAddress,
                let length = write(date, offset: timeZone.secondsFromGMT(for: date), to: base)
            else { return nil }
            return String(decoding: UnsafeBufferPointer(start: base, count: length), as: UTF8.self)
        }
    }

    /// Writes the timestamp for `date` at UTC offset `offset` (seconds east of Greenwich) at `target`, which has
    /// room for ``longest`` bytes.
    /// - Returns: The number of bytes written, or `nil` when the date is not finite or outside years 0...9999.
    static func write(_ date: Date, offset: Int, to target: UnsafeMutablePointer<UInt8>) -> Int? {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return nil }
        let totalMilliseconds = (interval * 1000).rounded()
        guard totalMilliseconds > -62_167_219_200_000, totalMilliseconds < 253_402_300_800_000 else { return nil }
        let milliseconds = Int64(totalMilliseconds) + Int64(offset) * 1000
        let (seconds, millisecond) = floorDivide(milliseconds, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else { return nil }
        DecimalDigits.writePadded(Int(year), width: 4, to: target)
        target[4] = UInt8(ascii: "-")
        DecimalDigits.writePadded(Int(month), width: 2, to: target + 5)
        target[7] = UInt8(ascii: "-")
        DecimalDigits.writePadded(Int(day), width: 2, to: target + 8)
        target[10] = UInt8(ascii: "T")
        let second = Int(secondOfDay)
        DecimalDigits.writePadded(second / 3600, width: 2, to: target + 11)
        target[13] = UInt8(ascii: ":")
        DecimalDigits.writePadded(second / 60 % 60, width: 2, to: target + 14)
        target[16] = UInt8(ascii: ":")
        DecimalDigits.writePadded(second % 60, width: 2, to: target + 17)
        var at = 19
        if millisecond != 0 {
            target[19] = UInt8(ascii: ".")
            DecimalDigits.writePadded(Int(millisecond), width: 3, to: target + 20)
            at = 23
        }
        target[at] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        // Whole minutes of the offset; a seconds part (historical local mean times) is dropped.
        let minutes = abs(offset) / 60
        DecimalDigits.writePadded(minutes / 60 % 100, width: 2, to: target + at + 1)
        target[at + 3] = UInt8(ascii: ":")
        DecimalDigits.writePadded(minutes % 60, width: 2, to: target + at + 4)
        return at + 6
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
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
