import Foundation

/// One element of export.xml with its subtree: a view into the scanner's ``ElementTree``, which holds one
/// top-level element (a `Record`, a `Workout`…) at a time, so memory holds one element, never the document.
///
/// A view is valid until the scanner reads the next top-level element: it is mapped at once, never kept.
struct ExportElement {
    /// The tree it is a view into, held so the tree outlives the view; the node's index in it; and the tree's
    /// generation when the view was made, checked on every read.
    let tree: ElementTree
    let index: Int
    private let generation: Int

    init(tree: ElementTree, index: Int) {
        self.tree = tree
        self.index = index
        generation = tree.generation
    }

    private var node: ElementTree.Node {
        precondition(generation == tree.generation, "an ExportElement read after the scanner moved on")
        return tree.node(index)
    }

    /// Its name, made into a string (``isNamed(_:)`` compares without making one).
    var name: String {
        let node = node
        return String(decoding: tree.bytes(node.nameStart, node.nameCount), as: UTF8.self)
    }

    /// `body` of its name's UTF-8 bytes, valid only inside `body`.
    func withName<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let node = node
        return body(tree.bytes(node.nameStart, node.nameCount))
    }

    /// Whether its name is `name`, compared as bytes.
    func isNamed(_ name: StaticString) -> Bool {
        _ = node
        return tree.node(index, isNamed: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// The 1-based line of its start tag.
    var line: Int { node.line }

    /// The value of the attribute named `attribute`, decoded (U+FFFD in place of bytes that are not UTF-8; the
    /// scanner reports those). O(a) in the element's attributes.
    subscript(attribute: String) -> String? {
        var name = attribute
        return name.withUTF8 { value(named: UnsafeRawBufferPointer($0)) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the attribute named `attribute` (references decoded), or `nil` when there is none: valid until
    /// the scanner reads on, so they are read at once and never kept.
    func value(of attribute: StaticString) -> UnsafeRawBufferPointer? {
        value(named: UnsafeRawBufferPointer(start: attribute.utf8Start, count: attribute.utf8CodeUnitCount))
    }

    private func value(named attribute: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        _ = node
        return tree.value(of: index, named: attribute)
    }

    /// `body` of the bytes of the attribute named `attribute` (``value(of:)``), or `nil` when there is none.
    func withValue<Result, Failure: Error>(
        _ attribute: StaticString, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard let value = value(of: attribute) else { return nil }
        return try body(value)
    }

    /// Whether it has the attribute `attribute`.
    func has(_ attribute: StaticString) -> Bool {
        value(of: attribute) != nil
    }

    /// Every attribute, in document order, as strings.
    var attributes: [XMLAttribute] {
        _ = node
        return tree.attributes(of: index).map {
            XMLAttribute(
                name: String(decoding: tree.bytes($0.nameStart, $0.nameCount), as: UTF8.self),
                value: String(decoding: tree.bytes($0.valueStart, $0.valueCount), as: UTF8.self))
        }
    }

    /// Its child elements, in document order.
    var children: Children { Children(tree: tree, parent: index, end: Int(node.end), generation: generation) }

    func children(named name: String) -> [ExportElement] {
        children.filter { $0.name == name }
    }

    /// The children of an element: a child's subtree ends where the next child starts. Indices are the
    /// children's positions in the tree; `count` is O(n).
    struct Children: Collection {
        fileprivate let tree: ElementTree
        fileprivate let parent: Int
        fileprivate let end: Int
        fileprivate let generation: Int

        var startIndex: Int { parent + 1 }
        var endIndex: Int { end }

        subscript(position: Int) -> ExportElement {
            precondition(generation == tree.generation, "an ExportElement read after the scanner moved on")
            return ExportElement(tree: tree, index: position)
        }

        func index(after position: Int) -> Int { Int(tree.node(position).end) }
    }
}

/// An attribute with its value decoded (the five named entities and numeric character references).
struct XMLAttribute: Hashable, Sendable {
    let name: String
    let value: String
}
