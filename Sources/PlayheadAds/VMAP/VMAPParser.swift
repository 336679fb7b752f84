import Foundation

/// Parses VMAP 1.0 playlists. Pure: bytes in, ``VMAPDocument`` out, no I/O. Elements are matched by
/// local name, so any namespace prefix (usually `vmap:`) is accepted.
public enum VMAPParser {
    /// Parses a whole VMAP document.
    ///
    /// - Parameter data: the document's bytes.
    /// - Returns: the ad breaks.
    /// - Throws: ``VASTError`` for malformed XML or a root other than `<vmap:VMAP>`; an inline VAST
    ///   document that fails drops its break with a warning instead.
    public static func parse(_ data: [UInt8]) throws(VASTError) -> VMAPDocument {
        try parse(root: XMLTreeBuilder.parse(data))
    }

    /// Parses an already-built `<vmap:VMAP>` element.
    ///
    /// - Parameter root: the `<vmap:VMAP>` element.
    /// - Returns: the ad breaks.
    /// - Throws: ``VASTError/unexpectedRoot(name:expected:line:column:)`` for another root.
    public static func parse(root: XMLNode) throws(VASTError) -> VMAPDocument {
        guard root.localName == "VMAP" else {
            throw .unexpectedRoot(name: root.name, expected: "<vmap:VMAP>", line: root.line, column: root.column)
        }
        var context = VASTReadContext()
        let breaks = root.elements("AdBreak").compactMap { readBreak($0, context: &context) }
        return VMAPDocument(version: root.attribute("version"), adBreaks: breaks, warnings: context.warnings)
    }

    static func readBreak(_ node: XMLNode, context: inout VASTReadContext) -> VMAPAdBreak? {
        guard let rawOffset = node.attribute("timeOffset") else {
            context.warn(.missingAttribute(name: "timeOffset", element: node.name, line: node.line, column: node.column))
            return nil
        }
        guard let offset = VMAPTimeOffset(parsing: rawOffset) else {
            context.warn(.invalidValue(field: "timeOffset", value: rawOffset, line: node.line, column: node.column))
            return nil
        }
        let types = (node.attribute("breakType") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if types.isEmpty {
            context.warn(.missingAttribute(name: "breakType", element: node.name, line: node.line, column: node.column))
        }
        var repeatAfter: Double?
        if let raw = node.attribute("repeatAfter") {
            repeatAfter = VASTTime.seconds(fromClock: raw)
            if repeatAfter == nil {
                context.warn(.invalidValue(field: "repeatAfter", value: raw, line: node.line, column: node.column))
            }
        }
        return VMAPAdBreak(
            timeOffset: offset, breakTypes: types, breakId: node.attribute("breakId"), repeatAfterSeconds: repeatAfter,
            adSource: node.element("AdSource").flatMap { readSource($0, context: &context) },
            trackingEvents: VASTCreativeReader.trackingEvents(node, context: &context),
            extensions: (node.element("Extensions")?.children ?? []).map {
                VASTExtension(type: $0.attribute("type"), xml: $0.xmlText)
            },
            line: node.line
        )
    }

    static func readSource(_ node: XMLNode, context: inout VASTReadContext) -> VMAPAdSource? {
        let content: VMAPAdSourceContent
        if let data = node.element("VASTAdData") {
            guard let vastNode = data.children.first else {
                context.warn(.missingElement(name: "VAST", parent: data.name, line: data.line, column: data.column))
                return nil
            }
            do {
                content = .vastAdData(try VASTParser.parse(root: vastNode))
            } catch {
                context.warn(error)
                return nil
            }
        } else if let tag = node.element("AdTagURI") {
            guard let url = tag.nonEmptyText else {
                context.warn(.missingElement(name: "URI text", parent: tag.name, line: tag.line, column: tag.column))
                return nil
            }
            content = .adTagURI(url: url, templateType: tag.attribute("templateType"))
        } else if let custom = node.element("CustomAdData") {
            content = .customAdData(templateType: custom.attribute("templateType"), xml: custom.xmlText)
        } else {
            context.warn(.missingElement(name: "VASTAdData, AdTagURI or CustomAdData", parent: node.name,
                                         line: node.line, column: node.column))
            return nil
        }
        return VMAPAdSource(id: node.attribute("id"), allowMultipleAds: node.boolAttribute("allowMultipleAds"),
                            followRedirects: node.boolAttribute("followRedirects"), content: content)
    }
}

/// A parsed ad response of either kind, for callers that do not know in advance (`playhead inspect vast`).
public enum AdDocument: Sendable, Equatable {
    /// A VAST response.
    case vast(VASTDocument)
    /// A VMAP playlist.
    case vmap(VMAPDocument)

    /// Parses VAST or VMAP, chosen by the root element.
    ///
    /// - Parameter data: the document's bytes.
    /// - Returns: the document.
    /// - Throws: ``VASTError`` as ``VASTParser`` and ``VMAPParser`` do; a root that is neither gives
    ///   ``VASTError/unexpectedRoot(name:expected:line:column:)``.
    public static func parse(_ data: [UInt8]) throws(VASTError) -> AdDocument {
        let root = try XMLTreeBuilder.parse(data)
        switch root.localName {
        case "VMAP": return .vmap(try VMAPParser.parse(root: root))
        case "VAST", "VideoAdServingTemplate": return .vast(try VASTParser.parse(root: root))
        default:
            throw .unexpectedRoot(name: root.name, expected: "<VAST> or <vmap:VMAP>", line: root.line, column: root.column)
        }
    }
}
