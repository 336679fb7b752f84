import Foundation

/// URL helpers: the player addresses every resource by an absolute URL string.
public enum ResourceURL {
    /// Turns a command-line argument into a URL: kept as is when it has a scheme, else taken as a
    /// file path (relative to the current directory) and given the `file://` scheme.
    public static func fromArgument(_ argument: String) -> String {
        if argument.contains("://") { return argument }
        let path = argument.hasPrefix("/") ? argument : FileManager.default.currentDirectoryPath + "/" + argument
        return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// Resolves `reference` (a URI from a playlist) against the playlist's URL, per RFC 3986. A playlist
    /// fetched over http(s) may not name a `file:` URL (``PlayheadError/localFileFromRemote(_:base:)``).
    public static func resolve(_ reference: String, against base: String) throws(PlayheadError) -> String {
        guard let baseURL = URL(string: base),
              let resolved = URL(string: reference, relativeTo: baseURL)?.absoluteURL else {
            throw .badURL(reference, base: base)
        }
        if ["http", "https"].contains(baseURL.scheme?.lowercased() ?? ""), resolved.isFileURL {
            throw .localFileFromRemote(resolved.absoluteString, base: base)
        }
        return resolved.absoluteString
    }
}
