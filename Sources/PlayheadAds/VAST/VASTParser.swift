/// Parses VAST 2.0–4.x responses. Pure: bytes in, ``VASTDocument`` out, no I/O.
///
/// Document-level failures throw ``VASTError``; problems inside one ad are recorded in
/// ``VASTDocument/warnings`` and either leave the ad incomplete (a missing `<AdTitle>`) or drop it
/// (a wrapper without `<VASTAdTagURI>`).
public enum VASTParser {
    /// Parses a whole VAST response.
    ///
    /// - Parameter data: the response body (any encoding `XMLParser` detects).
    /// - Returns: the document.
    /// - Throws: ``VASTError`` for malformed XML, a root other than `<VAST>`, or VAST 1.0.
    public static func parse(_ data: [UInt8]) throws(VASTError) -> VASTDocument {
        try parse(root: XMLTreeBuilder.parse(data))
    }

    /// Parses an already-built `<VAST>` element (e.g. the one inside VMAP's `<vmap:VASTAdData>`).
    ///
    /// - Parameter root: the `<VAST>` element.
    /// - Returns: the document.
    /// - Throws: ``VASTError/vast1NotSupported(line:column:)`` or ``VASTError/unexpectedRoot(name:expected:line:column:)``.
    public static func parse(root: XMLNode) throws(VASTError) -> VASTDocument {
        if root.localName == "VideoAdServingTemplate" {
            throw .vast1NotSupported(line: root.line, column: root.column)
        }
        guard root.localName == "VAST" else {
            throw .unexpectedRoot(name: root.name, expected: "<VAST>", line: root.line, column: root.column)
        }
        let version = root.attribute("version")
        if let version, version == "1" || version.hasPrefix("1.") {
            throw .vast1NotSupported(line: root.line, column: root.column)
        }
        var context = VASTReadContext()
        var ads: [VASTAd] = []
        for node in root.elements("Ad") {
            if let ad = readAd(node, context: &context) { ads.append(ad) }
        }
        return VASTDocument(version: version, ads: ads, errorURLs: VASTRead.urls(root.elements("Error")),
                            warnings: context.warnings)
    }

    static func readAd(_ node: XMLNode, context: inout VASTReadContext) -> VASTAd? {
        let kind: VASTAdKind
        if let inline = node.element("InLine") {
            kind = .inline(readInline(inline, context: &context))
        } else if let wrapper = node.element("Wrapper") {
            guard let ad = readWrapper(wrapper, context: &context) else { return nil }
            kind = .wrapper(ad)
        } else {
            context.warn(.missingElement(name: "InLine or Wrapper", parent: "Ad", line: node.line, column: node.column))
            return nil
        }
        return VASTAd(id: node.attribute("id"), sequence: node.intAttribute("sequence"),
                      adType: node.attribute("adType"), conditionalAd: node.boolAttribute("conditionalAd"),
                      kind: kind, line: node.line)
    }

    static func readInline(_ node: XMLNode, context: inout VASTReadContext) -> InlineAd {
        let adSystem = readAdSystem(node, context: &context)
        let title = node.element("AdTitle")?.nonEmptyText
        if title == nil {
            context.warn(.missingElement(name: "AdTitle", parent: "InLine", line: node.line, column: node.column))
        }
        let impressions = readImpressions(node)
        if impressions.isEmpty {
            context.warn(.missingElement(name: "Impression", parent: "InLine", line: node.line, column: node.column))
        }
        return InlineAd(
            adSystem: adSystem, adTitle: title, description: node.element("Description")?.nonEmptyText,
            advertiser: node.element("Advertiser")?.nonEmptyText, adServingId: node.element("AdServingId")?.nonEmptyText,
            impressions: impressions, errorURLs: VASTRead.urls(node.elements("Error")),
            creatives: VASTCreativeReader.creatives(node, isInline: true, context: &context),
            extensions: readExtensions(node)
        )
    }

    static func readWrapper(_ node: XMLNode, context: inout VASTReadContext) -> WrapperAd? {
        // `<VASTAdTagURL><URL>` is the pre-release VAST 2.0 spelling some servers still send.
        let legacy = node.element("VASTAdTagURL").flatMap { $0.element("URL")?.nonEmptyText ?? $0.nonEmptyText }
        guard let tagURI = node.element("VASTAdTagURI")?.nonEmptyText ?? legacy else {
            context.warn(.missingElement(name: "VASTAdTagURI", parent: "Wrapper", line: node.line, column: node.column))
            return nil
        }
        return WrapperAd(
            adSystem: readAdSystem(node, context: &context), vastAdTagURI: tagURI,
            followAdditionalWrappers: node.boolAttribute("followAdditionalWrappers") ?? true,
            allowMultipleAds: node.boolAttribute("allowMultipleAds") ?? false,
            fallbackOnNoAd: node.boolAttribute("fallbackOnNoAd"),
            impressions: readImpressions(node), errorURLs: VASTRead.urls(node.elements("Error")),
            creatives: VASTCreativeReader.creatives(node, isInline: false, context: &context),
            extensions: readExtensions(node)
        )
    }

    static func readAdSystem(_ node: XMLNode, context: inout VASTReadContext) -> VASTAdSystem? {
        guard let system = node.element("AdSystem") else {
            context.warn(.missingElement(name: "AdSystem", parent: node.localName, line: node.line, column: node.column))
            return nil
        }
        return VASTAdSystem(name: system.trimmedText, version: system.attribute("version"))
    }

    static func readImpressions(_ node: XMLNode) -> [VASTImpression] {
        node.elements("Impression").compactMap { element in
            element.nonEmptyText.map { VASTImpression(id: element.attribute("id"), url: $0) }
        }
    }

    static func readExtensions(_ node: XMLNode) -> [VASTExtension] {
        (node.element("Extensions")?.elements("Extension") ?? []).map {
            VASTExtension(type: $0.attribute("type"), xml: $0.xmlText)
        }
    }
}

/// Warnings gathered while reading one document.
struct VASTReadContext {
    var warnings: [VASTError] = []

    mutating func warn(_ warning: VASTError) { warnings.append(warning) }
}

/// Small readers shared by the VAST and VMAP parsers.
enum VASTRead {
    /// The non-blank trimmed texts of `nodes`.
    static func urls(_ nodes: [XMLNode]) -> [String] { nodes.compactMap(\.nonEmptyText) }

    /// `<Click>`-like elements as ``VASTClick`` values, blanks dropped.
    static func clicks(_ nodes: [XMLNode]) -> [VASTClick] {
        nodes.compactMap { node in node.nonEmptyText.map { VASTClick(id: node.attribute("id"), url: $0) } }
    }
}
