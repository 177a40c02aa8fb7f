import Foundation

extension Date {
    /// The date as error messages print it: as `Date` describes itself when it is a finite date, and as its raw
    /// seconds since the reference date otherwise (Foundation's description traps on a NaN date, and an error
    /// about a bad date must never be what crashes a program that prints it).
    var errorText: String {
        let seconds = timeIntervalSinceReferenceDate
        guard seconds.isFinite else { return "the invalid date \(seconds) (seconds since 2001-01-01)" }
        return "\(self)"
    }
}
