@testable import PlayheadCore
import Testing

/// The local names a download gives its files.
@Suite struct DownloadNamesTests {
    /// A name longer than a file system takes (255 bytes) is shortened, keeping its extension; two such names
    /// with the same start stay apart by their numbers (a 300-character segment name failed with "File name too long").
    @Test func longNamesAreShortenedKeepingTheirExtension() {
        let long = String(repeating: "a", count: 300)
        let name = LocalNames.fileName(of: "http://h/v/\(long).ts?x=1", kind: .segment)
        #expect(name.utf8.count == LocalNames.maximumNameBytes && name.hasSuffix(".ts") && name.hasPrefix("aaaa"))
        var names = LocalNames(reserved: [])
        let first = names.path(for: "http://h/v/\(long).ts", kind: .segment, folder: "variant", rangeEnd: nil)
        let second = names.path(for: "http://h/v/\(long)b.ts", kind: .segment, folder: "variant", rangeEnd: nil)
        #expect(first != second && second.hasPrefix("variant/2-"))
        #expect(LocalNames.fileName(of: "http://h/v/seg001.ts", kind: .segment) == "seg001.ts")
    }
}
