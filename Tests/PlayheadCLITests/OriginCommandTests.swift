import Foundation
import Testing

/// `playhead origin`: what its help promises about paths.
@Suite struct OriginCommandTests {
    /// A '..' that climbs above the folder is refused with 403 (OriginPathTests checks the server); the
    /// help used to say such segments were removed, which would have served `/../x` as `/x`.
    @Test func helpSaysAClimbAboveTheFolderIsRefused() async {
        let outcome = await CLI.run(CLI.playhead, ["origin", "--help"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let help = outcome.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("a '..' that climbs above the folder is refused (403)"), "\(help)")
        #expect(!help.contains("segments are removed"), "\(help)")
    }
}
