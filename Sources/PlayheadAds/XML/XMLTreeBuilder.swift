#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation

/// Builds an ``XMLNode`` tree from bytes with Foundation's `XMLParser` (FoundationXML on Linux).
/// External entities are never resolved; a parse failure carries the parser's line and column.
public enum XMLTreeBuilder {
    /// The deepest nesting of elements accepted. VAST and VMAP need about 10 levels; a document nested
    /// past this is refused (deeper trees would exhaust the stack when walked or freed).
    public static let maxDepth = 128

    /// Parses `data` into its root element.
    ///
    /// - Parameter data: the whole XML document.
    /// - Returns: the root element.
    /// - Throws: ``VASTError/malformedXML(message:line:column:)`` when the bytes are not well-formed XML,
    ///   nest elements deeper than ``maxDepth``, or hold no element.
    public static func parse(_ data: [UInt8]) throws(VASTError) -> XMLNode {
        let parser = XMLParser(data: Data(data))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let delegate = TreeDelegate()
        parser.delegate = delegate
        let ok = parser.parse()
        if !ok || delegate.failure != nil {
            let failure = delegate.failure
            let message = failure?.message ?? parser.parserError.map { Self.describe($0) } ?? "unknown XML error"
            // Positions are 1-based; an empty input leaves the parser at 0.
            throw .malformedXML(message: message, line: max(1, failure?.line ?? parser.lineNumber),
                                column: max(1, failure?.column ?? parser.columnNumber))
        }
        guard let root = delegate.root else {
            throw .malformedXML(message: "the document holds no element", line: max(1, parser.lineNumber),
                                column: max(1, parser.columnNumber))
        }
        return root
    }

    static func describe(_ error: Error) -> String {
        let ns = error as NSError
        return "XMLParser error \(ns.code)"
    }
}

/// The `XMLParser` delegate: a stack of open elements. Used on one thread inside `parse` only.
private final class TreeDelegate: NSObject, XMLParserDelegate {
    struct Failure { var message: String; var line: Int; var column: Int }

    var stack: [XMLNode] = []
    var root: XMLNode?
    var failure: Failure?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard failure == nil else { return }
        guard stack.count < XMLTreeBuilder.maxDepth else {
            failure = Failure(message: "elements nested deeper than \(XMLTreeBuilder.maxDepth) levels (<\(elementName)>)",
                              line: parser.lineNumber, column: parser.columnNumber)
            parser.abortParsing()
            return
        }
        stack.append(XMLNode(name: elementName, attributes: attributeDict,
                             line: parser.lineNumber, column: parser.columnNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard let done = stack.popLast() else { return }
        if stack.isEmpty {
            if root == nil { root = done }
        } else {
            stack[stack.count - 1].children.append(done)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if failure == nil {
            failure = Failure(message: "not well-formed XML (XMLParser error \((parseError as NSError).code))",
                              line: parser.lineNumber, column: parser.columnNumber)
        }
    }
}
