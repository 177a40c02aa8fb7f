/// The one rule for text a server supplies that reaches an error message — a line of a response body, a
/// `Location`: nothing in it may act on a terminal, and it stays short.
///
/// Every control character (C0, DEL, C1: escape, bell, carriage return, …), format character (bidirectional
/// overrides, zero-width characters) and line or paragraph separator is shown as its Swift escape (`\u{1B}`),
/// so an escape sequence arrives as inert text that still shows what was sent; the result is cut to
/// ``maximumCharacters``, the last one then `…`.
enum ServerText {
    /// The longest printable text, in characters.
    static let maximumCharacters = 120

    /// `text` made safe to print (see ``ServerText``).
    static func printable(_ text: some StringProtocol) -> String {
        // Enough scalars for the longest result; the rest of a long text is never looked at.
        let scalarLimit = maximumCharacters * 8
        var result = ""
        var scalars = 0
        for scalar in text.unicodeScalars {
            guard scalars < scalarLimit else {
                return String(result.prefix(maximumCharacters - 1)) + "…"
            }
            scalars += 1
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result.count > maximumCharacters ? String(result.prefix(maximumCharacters - 1)) + "…" : result
    }
}
