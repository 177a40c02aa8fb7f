/// One element of export.xml with its subtree: the scanner reads one top-level element (a `Record`, a
/// `Workout`…) at a time, so memory holds one element, never the document.
struct ExportElement {
    let name: String
    let attributes: [XMLAttribute]
    var children: [ExportElement]
    /// The 1-based line of its start tag.
    let line: Int

    /// The value of the attribute named `attribute`; O(a) in the element's attributes, names of another length
    /// passed over without reading them.
    subscript(attribute: String) -> String? {
        let length = attribute.utf8.count
        for index in attributes.indices
        where attributes[index].name.utf8.count == length && attributes[index].name == attribute {
            return attributes[index].value
        }
        return nil
    }

    func children(named name: String) -> [ExportElement] {
        children.filter { $0.name == name }
    }
}

extension ExportXMLScanner {
    /// Reads the rest of the element whose start tag was just scanned, with every descendant.
    func element(
        name: String, attributes: [XMLAttribute], selfClosing: Bool, line: Int
    ) throws(HealthExportError) -> ExportElement {
        var element = ExportElement(name: name, attributes: attributes, children: [], line: line)
        guard !selfClosing else { return element }
        while let event = try next() {
            switch event {
            case .start(let childName, let childAttributes, let childSelfClosing, _, let childLine):
                element.children.append(
                    try self.element(
                        name: childName, attributes: childAttributes, selfClosing: childSelfClosing, line: childLine))
            case .end:
                return element
            }
        }
        return element
    }
}
