import Foundation
import Hummingbird
import HummingbirdTesting
import PlayheadOrigin
import PlayheadServer
import PlayheadTestFixtures
import Testing

/// `GET /v1/sessions/{id}/thumbnail?time=T[&width=W][&source=…]`: the session's item as a PNG, and bad
/// queries named.
@Suite struct ThumbnailRouteTests {
    @Test func aSessionsThumbnailIsItsIFramePictureAsPNG() async throws {
        let origin = try LoopbackHTTPServer(root: ServerFixtures.streams)
        defer { origin.stop() }
        let tests = BadInputTests()
        let folder = ServerFixtures.temporaryDirectory("thumbnail-route")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await tests.withAPI { client, _ in
            let created = try await tests.post(client, #"{"url": "\#(origin.url("/thumbs/master.m3u8"))", "autoplay": false, "mode": "demux", "clock": "virtual"}"#)
            #expect(created.status == .created)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [String: Any])?["id"] as? String)
            let response = try await client.execute(uri: "/v1/sessions/\(id)/thumbnail?time=7&width=208", method: .get, headers: tests.auth)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            #expect(response.headers[HTTPFields.Element.Name("X-Playhead-Thumbnail-Source")!] == "iframe")
            #expect(response.headers[HTTPFields.Element.Name("X-Playhead-Thumbnail-Entry-Start")!] == "6.000000")
            #expect(response.headers[HTTPFields.Element.Name("X-Playhead-Thumbnail-PTS")!] == "672000 1/90000")
            let segment = await ChildProcess.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", ServerFixtures.streams + "/ts/v0/seg001.ts",
                                                            "-map", "0:v", "-f", "framemd5", "-"])
            #expect(response.headers[HTTPFields.Element.Name("X-Playhead-Thumbnail-MD5")!] == ChildProcess.framemd5Hashes(segment.stdout)[60])
            let png = Data(response.body.readableBytesView)
            try png.write(to: URL(fileURLWithPath: folder + "/t.png"))
            let probe = await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", folder + "/t.png"])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "png,208,118")

            let segmentSource = try await client.execute(uri: "/v1/sessions/\(id)/thumbnail?time=7.000&source=segment", method: .get, headers: tests.auth)
            #expect(segmentSource.status == .ok)
            #expect(segmentSource.headers[HTTPFields.Element.Name("X-Playhead-Thumbnail-Source")!] == "segment")
            #expect(segmentSource.headers[HTTPFields.Element.Name("X-Playhead-Thumbnail-MD5")!] == ChildProcess.framemd5Hashes(segment.stdout)[60])

            for (query, field) in [("", "time"), ("?time=x", "time"), ("?time=31", "time"), ("?time=0x10", "time"), ("?time=1e1", "time"),
                                   ("?time=%2B3", "time"), ("?time=-1", "time"), ("?time=.", "time"), ("?time=5&time=29", "time"), ("?time=5&witdh=100", "witdh"), ("?time=5&width=100&width=200", "width"), ("?time=3&width=1", "width"), ("?time=3&source=vtt", "source")] {
                let bad = try await client.execute(uri: "/v1/sessions/\(id)/thumbnail\(query)", method: .get, headers: tests.auth)
                #expect(bad.status == .badRequest, "\(query)")
                #expect(try tests.error(bad.body)["field"] as? String == field, "\(query)")
            }
            let unknown = try await client.execute(uri: "/v1/sessions/nope/thumbnail?time=3", method: .get, headers: tests.auth)
            #expect(unknown.status == .notFound)
        }
        try await tests.withAPI { client, _ in
            let created = try await tests.post(client, #"{"url": "\#(origin.url("/ts/master.m3u8"))", "autoplay": false, "mode": "demux", "clock": "virtual"}"#)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [String: Any])?["id"] as? String)
            let none = try await client.execute(uri: "/v1/sessions/\(id)/thumbnail?time=3&source=iframe", method: .get, headers: tests.auth)
            #expect(none.status == .unprocessableContent)
            #expect(try tests.error(none.body)["code"] as? String == "thumbnailUnavailable")
            origin.setFault(.status(404), forPath: "/ts/v0/seg000.ts")
            let failed = try await client.execute(uri: "/v1/sessions/\(id)/thumbnail?time=3", method: .get, headers: tests.auth)
            #expect(failed.status == .badGateway)
            #expect((try tests.error(failed.body)["message"] as? String)?.contains("/ts/v0/seg000.ts") == true)
        }
    }
}
