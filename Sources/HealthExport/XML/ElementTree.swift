import Foundation

/// The elements the scanner read for one top-level element of export.xml (a `Record`, a `Workout`…) with their
/// attributes, in storage reused from one top-level element to the next: reading a record makes no object and
/// no string. ``ExportElement`` is a view into it.
///
/// Nodes are kept in document order, each with the index past its subtree, so an element's children are found
/// by stepping from one child's end to the next. Element names, attribute names and attribute values (with their
/// references decoded) are bytes in one arena. Everything lives behind one pointer held in a constant, so that
/// reading a record costs no reference counting and no dynamic exclusivity check.
final class ElementTree {
    /// An element: where its name is in the arena, its attributes, and the end of its subtree.
    struct Node {
        let nameStart: Int32
        let nameCount: Int32
        /// The 1-based line of its start tag.
        let line: Int
        /// Its attributes: `attributes[firstAttribute..<endAttribute]`.
        let firstAttribute: Int32
        var endAttribute: Int32
        /// The index past its last descendant; set when its end tag is read.
        var end: Int32
    }

    /// An attribute: where its name and its value are in the arena.
    struct Attribute {
        let nameStart: Int32
        let nameCount: Int32
        let valueStart: Int32
        let valueCount: Int32
    }

    private struct Storage {
        var nodes: UnsafeMutableBufferPointer<Node>
        var nodeCount = 0
        var attributes: UnsafeMutableBufferPointer<Attribute>
        var attributeCount = 0
        var arena: UnsafeMutableRawBufferPointer
        var byteCount = 0
        var generation = 0
    }

    private let storage: UnsafeMutablePointer<Storage>

    /// The most memory one top-level element's tree may take — attribute bytes, attribute records and nodes — far
    /// above any element the Health app writes (a workout with its events and statistics takes a few kilobytes, a
    /// heart rate variability record with its beats a few tens), so hostile input costs at most this. Checked as
    /// each node and attribute is added: the arena's 32-bit offsets cannot overflow (past the limit by at most one
    /// attribute, itself within a tag of at most 64 MiB).
    static let memoryLimit = 64 << 20

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(
            to: Storage(
                nodes: .allocate(capacity: 64), attributes: .allocate(capacity: 256),
                arena: .allocate(byteCount: 16 << 10, alignment: 16)))
    }

    deinit {
        storage.pointee.nodes.deallocate()
        storage.pointee.attributes.deallocate()
        storage.pointee.arena.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Changed by every ``reset()``: a view made before it must not be read after it.
    var generation: Int { storage.pointee.generation }

    /// Whether the element read so far takes more than ``memoryLimit``.
    var isOverLimit: Bool {
        storage.pointee.byteCount + storage.pointee.attributeCount * MemoryLayout<Attribute>.stride
            + storage.pointee.nodeCount * MemoryLayout<Node>.stride > Self.memoryLimit
    }

    /// Forgets every node, keeping the storage. Views into the tree made before are invalid after.
    func reset() {
        storage.pointee.nodeCount = 0
        storage.pointee.attributeCount = 0
        storage.pointee.byteCount = 0
        storage.pointee.generation &+= 1
    }

    /// Starts a node named by the UTF-8 `name` (its attributes follow with ``addAttribute(name:value:)``);
    /// returns its index.
    func startNode(name: UnsafeRawBufferPointer, line: Int) -> Int {
        let nameStart = append(name)
        let first = Int32(storage.pointee.attributeCount)
        if storage.pointee.nodeCount == storage.pointee.nodes.count {
            storage.pointee.nodes = Self.grown(storage.pointee.nodes, keeping: storage.pointee.nodeCount)
        }
        let index = storage.pointee.nodeCount
        (storage.pointee.nodes.baseAddress! + index).initialize(
            to: Node(
                nameStart: nameStart, nameCount: Int32(name.count), line: line, firstAttribute: first,
                endAttribute: first, end: Int32(index + 1)))
        storage.pointee.nodeCount += 1
        return index
    }

    /// Adds an attribute to the last node started.
    func addAttribute(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        let nameStart = append(name)
        let valueStart = append(value)
        if storage.pointee.attributeCount == storage.pointee.attributes.count {
            storage.pointee.attributes = Self.grown(
                storage.pointee.attributes, keeping: storage.pointee.attributeCount)
        }
        (storage.pointee.attributes.baseAddress! + storage.pointee.attributeCount).initialize(
            to: Attribute(
                nameStart: nameStart, nameCount: Int32(name.count), valueStart: valueStart,
                valueCount: Int32(value.count)))
        storage.pointee.attributeCount += 1
        storage.pointee.nodes[storage.pointee.nodeCount - 1].endAttribute = Int32(storage.pointee.attributeCount)
    }

    /// Marks the node at `index` complete: its descendants are the nodes added since.
    func endNode(_ index: Int) {
        storage.pointee.nodes[index].end = Int32(storage.pointee.nodeCount)
    }

    /// The node at `index`; traps past the last one added since the last reset.
    func node(_ index: Int) -> Node {
        precondition(index < storage.pointee.nodeCount)
        return storage.pointee.nodes[index]
    }

    /// The attributes of node `index`, in document order.
    func attributes(of index: Int) -> UnsafeBufferPointer<Attribute> {
        let node = node(index)
        return UnsafeBufferPointer(
            rebasing: storage.pointee.attributes[Int(node.firstAttribute)..<Int(node.endAttribute)])
    }

    /// The bytes at `start` in the arena, valid until the next ``reset()`` or addition.
    func bytes(_ start: Int32, _ count: Int32) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage.pointee.arena[Int(start)..<Int(start + count)])
    }

    /// Whether node `index` is named by the UTF-8 `name`.
    func node(_ index: Int, isNamed name: UnsafeRawBufferPointer) -> Bool {
        let node = node(index)
        return Self.equal(bytes(node.nameStart, node.nameCount), name)
    }

    /// The value of the attribute of node `index` whose name is `name`'s bytes; O(a) in its attributes.
    func value(of index: Int, named name: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        for attribute in attributes(of: index) where Self.equal(bytes(attribute.nameStart, attribute.nameCount), name) {
            return bytes(attribute.valueStart, attribute.valueCount)
        }
        return nil
    }

    /// Whether the two byte ranges hold the same bytes: lengths first, then `memcmp`.
    static func equal(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        first.count == second.count
            && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
    }

    private func append(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let start = storage.pointee.byteCount
        if start + bytes.count > storage.pointee.arena.count {
            var larger = storage.pointee.arena.count * 2
            while start + bytes.count > larger { larger *= 2 }
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: larger, alignment: 16)
            grown.baseAddress!.copyMemory(from: storage.pointee.arena.baseAddress!, byteCount: start)
            storage.pointee.arena.deallocate()
            storage.pointee.arena = grown
        }
        if let base = bytes.baseAddress {
            (storage.pointee.arena.baseAddress! + start).copyMemory(from: base, byteCount: bytes.count)
        }
        storage.pointee.byteCount += bytes.count
        return Int32(start)
    }

    /// `buffer` moved into one twice its size, its first `count` elements kept.
    private static func grown<Element>(
        _ buffer: UnsafeMutableBufferPointer<Element>, keeping count: Int
    ) -> UnsafeMutableBufferPointer<Element> {
        let larger = UnsafeMutableBufferPointer<Element>.allocate(capacity: buffer.count * 2)
        _ = larger.moveInitialize(fromContentsOf: buffer[0..<count])
        buffer.deallocate()
        return larger
    }
}
