import Foundation
import HealthFlow

/// One event of the pull scanner.
enum XMLEvent {
    /// A start tag (or an empty element when `selfClosing`) with its attributes, and where it starts.
    case start(ExportElement, selfClosing: Bool, offset: Int64)
    /// An end tag.
    case end(name: String)
}

/// A pull scanner for export.xml: byte-level, incremental, over large buffered reads.
///
/// It reads the XML the Health app writes — a declaration, an internal DTD (skipped, whatever it declares:
/// some exports carry a malformed one), comments, and elements with attributes in any order, self-closing or
/// nested — and checks what a streaming import needs: tags close in order, the file does not end inside
/// markup, the root is `HealthData`. Text content is not reported (the export holds none worth keeping).
/// Memory: one buffer of `bufferSize` bytes, grown only for a single tag longer than that.
final class ExportXMLScanner {
    private let source: any ExportByteSource
    private var buffer: UnsafeMutableRawBufferPointer
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// The file offset of `buffer[0]`.
    private var base: Int64 = 0
    private var atEnd = false
    /// The elements open, innermost last, each with its node in ``tree`` (-1 for the root, which outlives it).
    private var stack: [(name: String, node: Int)] = []
    private var sawRoot = false
    /// Lines counted through `buffer[countedTo]`.
    private(set) var line = 1
    private var countedTo = 0

    /// The top-level element being read, with its descendants; reset when the next one starts.
    let tree = ElementTree()
    /// Values with references met lately (a device description, on every record of its source), by their bytes
    /// as written, with their decoded bytes: a repeat is copied, not decoded again.
    private var recentDecoded = RecentByBytes<[UInt8]>(capacity: 4)

    /// The first attribute value read since ``takeValueNotUTF8()`` that is not UTF-8: the attribute, its element
    /// and the element's line. The value itself reads with U+FFFD in place of the bad bytes; the caller skips the
    /// element rather than keep it.
    private var valueNotUTF8: (attribute: String, element: String, line: Int)?

    static let defaultBufferSize = 1 << 20
    private static let maximumTagSize = 64 << 20

    init(source: any ExportByteSource, bufferSize: Int = ExportXMLScanner.defaultBufferSize) {
        self.source = source
        buffer = .allocate(byteCount: max(bufferSize, 64), alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// The offset into export.xml of the next unread byte.
    var offset: Int64 { base + Int64(start) }

    /// The first attribute value that was not UTF-8 since the last call, if any (see ``valueNotUTF8``).
    func takeValueNotUTF8() -> (attribute: String, element: String, line: Int)? {
        defer { valueNotUTF8 = nil }
        return valueNotUTF8
    }

    /// The next element event, or `nil` after the root element closed and the file ended.
    func next() throws(HealthExportError) -> XMLEvent? {
        while true {
            guard try skipText() else {
                countLines(upTo: end)
                if !stack.isEmpty { throw .truncated(offset: base + Int64(end), line: line) }
                if !sawRoot { throw .notXML(offset: base + Int64(end), problem: "no root element") }
                return nil
            }
            // buffer[start] is "<".
            guard try available(2) else { throw truncatedHere() }
            switch buffer[start + 1] {
            case UInt8(ascii: "?"):
                start += 2
                try skip(past: Array("?>".utf8))
            case UInt8(ascii: "!"):
                try skipDeclaration()
            case UInt8(ascii: "/"):
                return .end(name: try endTag())
            default:
                return try startTag()
            }
        }
    }

    // MARK: Buffer

    /// Makes at least `count` unread bytes available; `false` when the file ends first.
    private func available(_ count: Int) throws(HealthExportError) -> Bool {
        while end - start < count {
            guard try fill() else { return false }
        }
        return true
    }

    /// Reads more bytes after `end`, first moving the unread ones to the front (or growing the buffer when
    /// it is full of one token); `false` at the end of the file.
    private func fill() throws(HealthExportError) -> Bool {
        guard !atEnd else { return false }
        if start > 0 {
            countLines(upTo: start)
            let unread = end - start
            if unread > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: unread)
            }
            base += Int64(start)
            countedTo -= start
            end = unread
            start = 0
        }
        if end == buffer.count {
            guard buffer.count < Self.maximumTagSize else {
                throw .malformedXML(offset: offset, line: line, problem: "a tag longer than 64 MiB")
            }
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = larger
        }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
        if count == 0 {
            atEnd = true
            return false
        }
        end += count
        return true
    }

    private func countLines(upTo index: Int) {
        guard index > countedTo else { return }
        line += Self.newlineCount(in: UnsafeRawBufferPointer(rebasing: buffer[countedTo..<index]))
        countedTo = index
    }

    /// The number of `\n` bytes in `bytes`, found with `memchr` (an export has a newline every few hundred bytes,
    /// which `memchr` passes over many bytes a step).
    static func newlineCount(in bytes: UnsafeRawBufferPointer) -> Int {
        guard var next = bytes.baseAddress else { return 0 }
        let end = next + bytes.count
        var count = 0
        while next < end, let newline = memchr(next, 0x0A, next.distance(to: end)) {
            count += 1
            next = UnsafeRawPointer(newline) + 1
        }
        return count
    }

    /// A top-level element past ``ElementTree/memoryLimit``, reported at the tag that crossed it.
    private func tooLarge(at index: Int) -> HealthExportError {
        malformed(
            "an element taking more than \(ElementTree.memoryLimit >> 20) MiB with its elements and attributes",
            at: index)
    }

    private func truncatedHere() -> HealthExportError {
        countLines(upTo: end)
        return .truncated(offset: base + Int64(end), line: line)
    }

    private func malformed(_ problem: String, at index: Int) -> HealthExportError {
        countLines(upTo: index)
        return .malformedXML(offset: base + Int64(index), line: line, problem: problem)
    }

    // MARK: Between tags

    /// Skips to the next "<"; `false` at the end of the file. Text before the root element (other than
    /// whitespace and a byte-order mark) means the file is not XML.
    private func skipText() throws(HealthExportError) -> Bool {
        while true {
            var index = start
            while index < end {
                let byte = buffer[index]
                if byte == UInt8(ascii: "<") {
                    start = index
                    return true
                }
                if !sawRoot, !Self.isSpace(byte) {
                    if base + Int64(index) < 3, byte == 0xEF || byte == 0xBB || byte == 0xBF {
                        index += 1
                        continue
                    }
                    throw .notXML(offset: base + Int64(index), problem: "text where XML markup should be")
                }
                index += 1
            }
            start = end
            guard try fill() else { return false }
        }
    }

    /// Skips through the first occurrence of `pattern` at or after `start`.
    private func skip(past pattern: [UInt8]) throws(HealthExportError) {
        var index = start
        while true {
            while index < end {
                if buffer[index] == pattern[pattern.count - 1], index - start + 1 >= pattern.count {
                    var matches = true
                    for back in 1..<pattern.count where buffer[index - back] != pattern[pattern.count - 1 - back] {
                        matches = false
                        break
                    }
                    if matches {
                        start = index + 1
                        return
                    }
                }
                index += 1
            }
            start += max(0, index - (pattern.count - 1) - start)
            let relative = index - start
            guard try fill() else { throw truncatedHere() }
            index = start + relative
        }
    }

    /// Skips a comment, a CDATA section or the DOCTYPE with its internal subset.
    private func skipDeclaration() throws(HealthExportError) {
        guard try available(4) else { throw truncatedHere() }
        if buffer[start + 2] == UInt8(ascii: "-"), buffer[start + 3] == UInt8(ascii: "-") {
            start += 4
            return try skip(past: Array("-->".utf8))
        }
        guard try available(9) else { throw truncatedHere() }
        let keyword = String(
            decoding: UnsafeRawBufferPointer(rebasing: buffer[(start + 2)..<(start + 9)]), as: UTF8.self)
        if keyword == "[CDATA[" {
            start += 9
            return try skip(past: Array("]]>".utf8))
        }
        guard keyword == "DOCTYPE", !sawRoot else {
            throw malformed("unknown declaration <!\(keyword)", at: start)
        }
        try skipDocumentType()
    }

    /// Skips `<!DOCTYPE … [ … ]>`: quotes, comments, processing instructions and the bracketed internal subset
    /// may hold ">". Inside a comment or a processing instruction (which ends at its first "?>") quotes and
    /// brackets mean nothing.
    private func skipDocumentType() throws(HealthExportError) {
        var index = start + 9
        var quote: UInt8 = 0
        var inSubset = false
        var inComment = false
        var inInstruction = false
        while true {
            while index < end {
                let byte = buffer[index]
                if inComment {
                    if byte == UInt8(ascii: ">"), buffer[index - 1] == UInt8(ascii: "-"),
                        buffer[index - 2] == UInt8(ascii: "-")
                    {
                        inComment = false
                    }
                } else if inInstruction {
                    if byte == UInt8(ascii: ">"), buffer[index - 1] == UInt8(ascii: "?") { inInstruction = false }
                } else if quote != 0 {
                    if byte == quote { quote = 0 }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
                    case UInt8(ascii: "["): inSubset = true
                    case UInt8(ascii: "]"): inSubset = false
                    case UInt8(ascii: "-"):
                        if buffer[index - 1] == UInt8(ascii: "-"), buffer[index - 2] == UInt8(ascii: "!"),
                            buffer[index - 3] == UInt8(ascii: "<")
                        {
                            inComment = true
                            index += 1  // "<!--" followed directly by "->" must not close the comment
                        }
                    case UInt8(ascii: "?") where buffer[index - 1] == UInt8(ascii: "<"):
                        inInstruction = true
                        index += 1  // the "?" of "<?" must not close it: "<?>" is no whole instruction
                    case UInt8(ascii: ">") where !inSubset:
                        start = index + 1
                        return
                    default: break
                    }
                }
                index += 1
            }
            // Keep four bytes behind `index` for the look-behind checks.
            let consumed = max(0, index - 4 - start)
            start += consumed
            let relative = index - start
            guard try fill() else { throw truncatedHere() }
            index = start + relative
        }
    }

    // MARK: Tags

    /// The index of the ">" that ends the tag starting at `start` (quotes may hold ">"); a quoted value is
    /// skipped with `memchr` (values are most of a record's bytes).
    private func tagEnd() throws(HealthExportError) -> Int {
        var index = start + 1
        var quote: UInt8 = 0
        while true {
            while index < end {
                if quote != 0 {
                    let base = buffer.baseAddress!
                    guard let closing = memchr(base + index, Int32(quote), end - index) else {
                        index = end
                        break
                    }
                    index = base.distance(to: closing) + 1
                    quote = 0
                    continue
                }
                let byte = buffer[index]
                if byte == UInt8(ascii: ">") {
                    return index
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "<") {
                    throw malformed("\"<\" inside a tag", at: index)
                }
                index += 1
            }
            let relative = index - start
            guard try fill() else { throw truncatedHere() }
            index = start + relative
        }
    }

    private func endTag() throws(HealthExportError) -> String {
        let close = try tagEnd()
        var nameEnd = close
        while nameEnd > start + 2, Self.isSpace(buffer[nameEnd - 1]) { nameEnd -= 1 }
        let name = string(from: start + 2, to: nameEnd)
        guard let open = stack.popLast() else { throw malformed("</\(name)> closes nothing", at: start) }
        guard open.name == name else { throw malformed("</\(name)> closes <\(open.name)>", at: start) }
        if open.node >= 0 { tree.endNode(open.node) }
        start = close + 1
        return name
    }

    /// Reads the rest of the element `element`, whose start tag was just scanned, with every descendant (into
    /// ``tree``, without recursion: nesting depth costs no stack).
    func element(_ element: ExportElement, selfClosing: Bool) throws(HealthExportError) -> ExportElement {
        guard !selfClosing else { return element }
        let depth = stack.count
        while stack.count >= depth, try next() != nil {}
        return element
    }

    private func startTag() throws(HealthExportError) -> XMLEvent {
        let close = try tagEnd()
        let tagStart = start
        if sawRoot, stack.isEmpty { throw malformed("an element after the root element", at: tagStart) }
        var index = start + 1
        while index < close, !Self.isSpace(buffer[index]), buffer[index] != UInt8(ascii: "/") { index += 1 }
        guard index > start + 1 else { throw malformed("a tag without a name", at: tagStart) }
        let name = string(from: start + 1, to: index)
        countLines(upTo: tagStart)
        // The root and each top-level element start a tree of their own.
        if stack.count <= 1 { tree.reset() }
        let node = tree.startNode(name: UnsafeRawBufferPointer(rebasing: buffer[(start + 1)..<index]), line: line)
        if tree.isOverLimit { throw tooLarge(at: tagStart) }
        var selfClosing = false
        var notUTF8: String?
        // Quotes are ASCII, so a tag that is UTF-8 as a whole has UTF-8 values (references decode to scalars);
        // only a tag that is not has its values checked one by one, to name the first bad one.
        let tagIsUTF8 = UTF8Bytes.isValid(UnsafeRawBufferPointer(rebasing: buffer[tagStart...close]))
        while true {
            while index < close, Self.isSpace(buffer[index]) { index += 1 }
            if index == close { break }
            if buffer[index] == UInt8(ascii: "/") {
                guard index + 1 == close else { throw malformed("\"/\" inside <\(name)>", at: index) }
                selfClosing = true
                break
            }
            let nameStart = index
            while index < close, buffer[index] != UInt8(ascii: "="), !Self.isSpace(buffer[index]) { index += 1 }
            let nameEnd = index
            while index < close, Self.isSpace(buffer[index]) { index += 1 }
            guard index < close, buffer[index] == UInt8(ascii: "="), nameEnd > nameStart else {
                throw malformed(
                    "attribute \(string(from: nameStart, to: nameEnd)) of <\(name)> has no value", at: nameStart)
            }
            index += 1
            while index < close, Self.isSpace(buffer[index]) { index += 1 }
            guard index < close, buffer[index] == UInt8(ascii: "\"") || buffer[index] == UInt8(ascii: "'") else {
                throw malformed(
                    "attribute \(string(from: nameStart, to: nameEnd)) of <\(name)> is not quoted", at: index)
            }
            // The closing quote comes before `close` (`tagEnd()` matched the quotes): found with `memchr`, as is a
            // reference in the value.
            let quote = buffer[index]
            let valueStart = index + 1
            let base = buffer.baseAddress!
            index = base.distance(to: memchr(base + valueStart, Int32(quote), close - valueStart)!)
            let attributeName = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<nameEnd])
            let written = UnsafeRawBufferPointer(rebasing: buffer[valueStart..<index])
            if memchr(base + valueStart, Int32(UInt8(ascii: "&")), index - valueStart) != nil {
                let decoded: [UInt8]
                if let known = recentDecoded.value(for: written) {
                    decoded = known
                } else {
                    decoded = try decodeReferences(from: valueStart, to: index)
                    recentDecoded.add(written, decoded)
                }
                decoded.withUnsafeBytes { tree.addAttribute(name: attributeName, value: $0) }
            } else {
                tree.addAttribute(name: attributeName, value: written)
            }
            if tree.isOverLimit { throw tooLarge(at: tagStart) }
            if !tagIsUTF8, notUTF8 == nil, !UTF8Bytes.isValid(written) {
                notUTF8 = string(from: nameStart, to: nameEnd)
            }
            index += 1
        }
        if !sawRoot {
            guard name == "HealthData" else {
                throw .notXML(
                    offset: base + Int64(tagStart), problem: "the root element is <\(name)>, not <HealthData>")
            }
            sawRoot = true
        }
        if selfClosing {
            tree.endNode(node)
        } else {
            stack.append((name, stack.isEmpty ? -1 : node))
        }
        if let notUTF8, valueNotUTF8 == nil { valueNotUTF8 = (notUTF8, name, line) }
        start = close + 1
        return .start(ExportElement(tree: tree, index: node), selfClosing: selfClosing, offset: base + Int64(tagStart))
    }

    private func string(from first: Int, to last: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[first..<last]), as: UTF8.self)
    }

    /// The bytes at `buffer[first..<last]` with `&lt; &gt; &amp; &quot; &apos;`, `&#NNN;` and `&#xHHHH;` (any number
    /// of leading zeros) decoded; anything else — an unknown name, no digits, a value past U+10FFFF, a surrogate or 0, a missing
    /// ";" — is malformed at the reference. The bytes between references are taken as they are (checked as UTF-8
    /// by the caller).
    private func decodeReferences(from first: Int, to last: Int) throws(HealthExportError) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(last - first)
        let base = buffer.baseAddress!
        var index = first
        while index < last {
            let run = index
            index = memchr(base + index, Int32(UInt8(ascii: "&")), last - index).map { base.distance(to: $0) } ?? last
            decoded.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[run..<index]))
            guard index < last else { break }
            let semicolon: Int
            if index + 1 < last, buffer[index + 1] == UInt8(ascii: "#") {
                let (scalar, end) = try characterReference(at: index, before: last)
                UTF8.encode(scalar) { decoded.append($0) }
                semicolon = end
            } else {
                // A name is at most four letters ("quot", "apos"): look no further than one more for the ";".
                var end = index + 1
                while end < last, end - index <= 5, buffer[end] != UInt8(ascii: ";") { end += 1 }
                guard end < last, buffer[end] == UInt8(ascii: ";") else {
                    throw malformed("an unterminated character reference", at: index)
                }
                guard let named = Self.namedEntity(UnsafeRawBufferPointer(rebasing: buffer[(index + 1)..<end])) else {
                    throw malformed("unknown reference &\(string(from: index + 1, to: end));", at: index)
                }
                decoded.append(named)
                semicolon = end
            }
            index = semicolon + 1
        }
        return decoded
    }

    /// The scalar of the numeric reference `&#…;` starting at `buffer[ampersand]`, and the index of its ";":
    /// digits are read while the value stays within U+10FFFF, so leading zeros are unbounded and the work is not.
    private func characterReference(
        at ampersand: Int, before last: Int
    ) throws(HealthExportError) -> (Unicode.Scalar, semicolon: Int) {
        var index = ampersand + 2
        let hex = index < last && (buffer[index] == UInt8(ascii: "x") || buffer[index] == UInt8(ascii: "X"))
        if hex { index += 1 }
        let digitsStart = index
        var value: UInt32 = 0
        while index < last, buffer[index] != UInt8(ascii: ";") {
            let byte = buffer[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw malformed(
                    "a character reference with \"\(Character(Unicode.Scalar(byte)))\" in it", at: ampersand)
            }
            value = value * (hex ? 16 : 10) + digit
            guard value <= 0x10_FFFF else { throw malformed("a character reference past U+10FFFF", at: ampersand) }
            index += 1
        }
        guard index < last else { throw malformed("an unterminated character reference", at: ampersand) }
        guard index > digitsStart else { throw malformed("a character reference without digits", at: ampersand) }
        guard value != 0, let scalar = Unicode.Scalar(value) else {
            throw malformed(
                "a character reference to \(value == 0 ? "U+0000" : "a surrogate"), which XML does not allow",
                at: ampersand)
        }
        return (scalar, index)
    }

    /// The byte `lt`, `gt`, `amp`, `quot` or `apos` stands for; `nil` for any other name.
    private static func namedEntity(_ name: UnsafeRawBufferPointer) -> UInt8? {
        switch name.count {
        case 2 where name[1] == UInt8(ascii: "t"):
            switch name[0] {
            case UInt8(ascii: "l"): UInt8(ascii: "<")
            case UInt8(ascii: "g"): UInt8(ascii: ">")
            default: nil
            }
        case 3 where name.elementsEqual("amp".utf8): UInt8(ascii: "&")
        case 4 where name.elementsEqual("quot".utf8): UInt8(ascii: "\"")
        case 4 where name.elementsEqual("apos".utf8): UInt8(ascii: "'")
        default: nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}
