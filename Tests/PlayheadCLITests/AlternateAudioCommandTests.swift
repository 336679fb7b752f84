import Foundation
import Testing

/// `play --framemd5` with a joined audio rendition: the video's lines are FFmpeg's for the video playlist.
@Suite struct AlternateAudioCommandTests {
    @Test(arguments: ["ts", "fmp4"])
    func theVideoFramemd5IsFFmpegsOfTheVideoPlaylist(type: String) async throws {
        let ours = await CLI.run(CLI.playhead, ["play", CLI.streams + "/altaudio/\(type)-master.m3u8", "--clock", "virtual", "--variant", "0",
                                                "--framemd5", "-", "--quiet"])
        #expect(ours.status == 0, "\(ours.stderr)")
        let reference = await CLI.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", CLI.streams + "/altaudio/\(type)/v0/index.m3u8",
                                                 "-map", "0:v", "-f", "framemd5", "-"])
        let lines = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init) }
        // Timestamps too (the fMP4 audio starts 0.066 s before the video: they began at 2, not 0).
        #expect(lines(ours.stdout) == lines(reference.stdout), "\(lines(ours.stdout).prefix(2)) vs \(lines(reference.stdout).prefix(2))")
        #expect(lines(ours.stdout).count == 900)
    }
}
