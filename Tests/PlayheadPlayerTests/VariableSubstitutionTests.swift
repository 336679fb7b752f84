import Foundation
import PlayheadCore
import PlayheadOrigin
import Testing

/// EXT-X-DEFINE `QUERYPARAM` and `IMPORT` take their values where RFC 8216bis says: the query of the
/// URL a playlist was fetched with, and the multivariant playlist that named the media playlist. They
/// had no value in the player, so such a stream asked for `…/%7B$name%7D000.ts` and failed with 404.
@Suite struct VariableSubstitutionTests {
    /// A folder served on 127.0.0.1: a multivariant playlist whose variant URI uses a query variable,
    /// and a media playlist that imports one variable and reads another from its own query.
    func serve(_ body: (LoopbackHTTPServer) async throws -> Void) async throws {
        let folder = NSTemporaryDirectory() + "playhead-define-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/v0", withIntermediateDirectories: true)
        for name in ["seg000.ts", "seg001.ts"] {
            try FileManager.default.copyItem(atPath: PlayerFixtures.streams + "/ts/v0/" + name, toPath: folder + "/v0/" + name)
        }
        try """
        #EXTM3U
        #EXT-X-VERSION:11
        #EXT-X-DEFINE:QUERYPARAM="rendition"
        #EXT-X-DEFINE:NAME="prefix",VALUE="seg"
        #EXT-X-STREAM-INF:BANDWIDTH=600000
        media.m3u8?dir={$rendition}

        """.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        try """
        #EXTM3U
        #EXT-X-VERSION:11
        #EXT-X-TARGETDURATION:4
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-DEFINE:IMPORT="prefix"
        #EXT-X-DEFINE:QUERYPARAM="dir"
        #EXTINF:4,
        {$dir}/{$prefix}000.ts
        #EXTINF:4,
        {$dir}/{$prefix}001.ts
        #EXT-X-ENDLIST

        """.write(toFile: folder + "/media.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try await body(server)
    }

    @Test func queryParametersAndImportsReachTheSegmentURIs() async throws {
        try await serve { server in
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8?rendition=v0"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
            #expect(run.report.segmentsDownloaded == 2)
        }
    }

    @Test func aMissingQueryParameterIsAParseErrorNamingTheLine() async throws {
        try await serve { server in
            let run = await PlayerFixtures.playVirtual(server.url("/master.m3u8?other=v0"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .error)
            let error = run.report.error ?? ""
            #expect(error.contains("line 3") && error.contains("QUERYPARAM=\"rendition\": the playlist's URL has no query parameter rendition"), "\(error)")
        }
    }

    /// A media playlist loaded directly has no multivariant playlist to import from.
    @Test func anImportWithoutAMultivariantPlaylistIsAParseError() async throws {
        try await serve { server in
            let run = await PlayerFixtures.playVirtual(server.url("/media.m3u8?dir=v0"), configure: { $0.mode = .demux })
            #expect(run.report.finalStatus == .error)
            #expect((run.report.error ?? "").contains("IMPORT=\"prefix\": no multivariant playlist that led here defines prefix"), "\(run.report.error ?? "")")
        }
    }
}
