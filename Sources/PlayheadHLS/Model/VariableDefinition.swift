/// EXT-X-DEFINE: a variable for `{$name}` substitution.
public struct VariableDefinition: Sendable, Equatable, Codable {
    /// How the variable gets its value.
    public enum Source: String, Sendable, Equatable, Codable {
        /// NAME/VALUE: the value is given in the tag.
        case value
        /// IMPORT: the value comes from the multivariant playlist.
        case `import`
        /// QUERYPARAM: the value comes from the playlist URL's query parameter of that name.
        case queryParameter
    }

    /// The variable name.
    public var name: String
    /// Where the value comes from.
    public var source: Source
    /// The value used for substitution; absent when an import or query parameter was not supplied.
    public var value: String?

    /// Creates a definition.
    public init(name: String, source: Source, value: String?) {
        self.name = name
        self.source = source
        self.value = value
    }
}
