import Foundation
import PlayheadCore

/// A URL given in an option beside the item's: an absolute URL as it is, a path to an existing file as
/// its file URL, anything else resolved against the item's URL (the text itself when it cannot be).
func argumentURL(_ text: String, against item: String) -> String {
    if text.contains("://") { return text }
    if FileManager.default.fileExists(atPath: text) { return ResourceURL.fromArgument(text) }
    return (try? ResourceURL.resolve(text, against: item)) ?? text
}
