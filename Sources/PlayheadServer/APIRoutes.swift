import Foundation
import Hummingbird
import PlayheadCore
import PlayheadReport

/// The HTTP API (see `docs/openapi.yaml`): sessions, commands, events, reports, thumbnails, metrics, health.
public enum APIRoutes {
    /// Every route's method and path template, for 405 answers (kept beside the handlers below).
    static let routes: [(method: HTTPRequest.Method, template: String)] = [
        (.get, "/healthz"), (.get, "/metrics"), (.post, "/v1/sessions"), (.get, "/v1/sessions"),
        (.get, "/v1/sessions/:id"), (.delete, "/v1/sessions/:id"),
        (.post, "/v1/sessions/:id/play"), (.post, "/v1/sessions/:id/pause"), (.post, "/v1/sessions/:id/stop"),
        (.post, "/v1/sessions/:id/click"), (.post, "/v1/sessions/:id/skip-ad"),
        (.post, "/v1/sessions/:id/seek"), (.get, "/v1/sessions/:id/events"), (.get, "/v1/sessions/:id/report"),
        (.get, "/v1/sessions/:id/report.html"), (.get, "/v1/sessions/:id/thumbnail"),
    ]

    /// The API's responder: the router, with HEAD answered as GET without the body.
    public static func responder(manager: SessionManager, metrics: ServerMetrics,
                                 settings: ServerSettings) -> HeadAsGetResponder<some HTTPResponder<BasicRequestContext>> {
        HeadAsGetResponder(router(manager: manager, metrics: metrics, settings: settings).buildResponder())
    }

    /// A router with every route, the bearer-token check and the body limit of `settings`.
    public static func router(manager: SessionManager, metrics: ServerMetrics, settings: ServerSettings) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RouteFallbackMiddleware(routes: routes))
        router.add(middleware: BearerTokenMiddleware(token: settings.token))
        let limit = settings.maxBodyBytes

        router.get("/healthz") { _, _ in HTTPReply.json("{\"status\":\"ok\"}") }
        router.get("/metrics") { _, _ in
            HTTPReply.text(metrics.scrape(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.post("/v1/sessions") { request, _ in
            await HTTPReply.guarded {
                let spec = try SessionSpec.parse(try await HTTPReply.body(of: request, limit: limit))
                var created = try manager.create(spec)
                created.report = nil
                return try HTTPReply.json(created, status: 201)
            }
        }
        router.get("/v1/sessions") { _, _ in
            await HTTPReply.guarded {
                let sessions = try manager.store.sessions().map { stored -> SessionView in
                    var stored = stored
                    stored.report = nil
                    let live = manager.runningSession(stored.id)?.live
                    if let live { stored.status = live.status }
                    return SessionView(session: stored, live: live)
                }
                return try HTTPReply.json(["sessions": sessions])
            }
        }
        router.get("/v1/sessions/:id") { _, context in
            await HTTPReply.guarded {
                var (stored, live) = try manager.describe(try context.parameters.require("id"))
                stored.report = nil
                return try HTTPReply.json(SessionView(session: stored, live: live))
            }
        }
        router.delete("/v1/sessions/:id") { _, context in
            await HTTPReply.guarded {
                try await manager.delete(try context.parameters.require("id"))
                return Response(status: .noContent)
            }
        }
        for (name, command) in [("play", PlayerCommand.play), ("pause", .pause), ("stop", .stop), ("click", .clickAd), ("skip-ad", .skipAd)] {
            router.post("/v1/sessions/:id/\(name)") { _, context in
                await HTTPReply.guarded {
                    try manager.command(try context.parameters.require("id"), command)
                    return HTTPReply.json("{\"accepted\":\"\(name)\"}", status: 202)
                }
            }
        }
        router.post("/v1/sessions/:id/seek") { request, context in
            await HTTPReply.guarded {
                let id = try context.parameters.require("id")
                let (seconds, local) = try SeekBody.parse(try await HTTPReply.body(of: request, limit: limit))
                try manager.command(id, local ? .seekToLocal(seconds: seconds) : .seek(toSeconds: seconds))
                return HTTPReply.json("{\"accepted\":\"seek\",\"seconds\":\(seconds)\(local ? ",\"local\":true" : "")}", status: 202)
            }
        }
        router.post("/v1/sessions/:id/rate") { request, context in
            await HTTPReply.guarded {
                let id = try context.parameters.require("id")
                let rate = try RateBody.parse(try await HTTPReply.body(of: request, limit: limit))
                try manager.command(id, .setRate(rate))
                return HTTPReply.json("{\"accepted\":\"rate\",\"rate\":\(rate)}", status: 202)
            }
        }
        router.post("/v1/sessions/:id/replace") { request, context in
            await HTTPReply.guarded {
                let id = try context.parameters.require("id")
                let url = try ReplaceBody.parse(try await HTTPReply.body(of: request, limit: limit))
                try manager.command(id, .replaceItem(url: url))
                return try HTTPReply.json(["accepted": "replace", "url": url], status: 202)
            }
        }
        router.post("/v1/sessions/:id/resume") { request, context in
            await HTTPReply.guarded {
                let id = try context.parameters.require("id")
                let body = try await HTTPReply.body(of: request, limit: limit)
                let (seconds, autoplay) = try ResumeBody.parse(body)
                try manager.command(id, .resume(atSeconds: seconds, autoplay: autoplay))
                return HTTPReply.json("{\"accepted\":\"resume\",\"autoplay\":\(autoplay)" + (seconds.map { ",\"seconds\":\($0)" } ?? "") + "}", status: 202)
            }
        }
        let selections: [(String, @Sendable (String) -> PlayerCommand)] = [
            ("audio", { .selectAudio(AudioChoice($0)) }), ("subtitles", { .selectSubtitles(SubtitleChoice($0)) }),
        ]
        for (name, command) in selections {
            router.post("/v1/sessions/:id/\(name)") { request, context in
                await HTTPReply.guarded {
                    let id = try context.parameters.require("id")
                    let track = try TrackBody.parse(try await HTTPReply.body(of: request, limit: limit))
                    if name == "audio", track.lowercased() == "off" { throw APIError.invalidField("track", "audio has no off: give a rendition's name or language, or auto") }
                    try manager.command(id, command(track))
                    return try HTTPReply.json(["accepted": name, "track": track], status: 202)
                }
            }
        }
        router.get("/v1/sessions/:id/events") { request, context in
            await HTTPReply.guarded {
                try EventStream.response(manager: manager, id: try context.parameters.require("id"),
                                         after: try EventStream.lastEventID(request),
                                         keepAliveSeconds: settings.eventStreamKeepAliveSeconds)
            }
        }
        router.get("/v1/sessions/:id/report") { _, context in
            await HTTPReply.guarded {
                let (report, partial) = try SessionReports.report(manager: manager, id: try context.parameters.require("id"))
                var response = try HTTPReply.json(report)
                if partial { response.headers[HTTPFields.Element.Name("X-Playhead-Partial")!] = "true" }
                return response
            }
        }
        router.get("/v1/sessions/:id/report.html") { _, context in
            await HTTPReply.guarded {
                let id = try context.parameters.require("id")
                let (report, partial) = try SessionReports.report(manager: manager, id: id)
                let events = try SessionReports.events(manager: manager, id: id)
                // Not final: said on the page and in the header, as the JSON report does.
                let note = partial ? "Partial report: " + (report.error?.hasPrefix("interrupted") == true
                    ? "put together from the stored events and samples of an interrupted session."
                    : "the session is still running; reload for the latest figures.") : nil
                var response = HTTPReply.text(PlaybackReportHTML.render(report: report, events: events, partialNote: note),
                                              contentType: "text/html; charset=utf-8")
                if partial { response.headers[HTTPFields.Element.Name("X-Playhead-Partial")!] = "true" }
                return response
            }
        }
        router.get("/v1/sessions/:id/thumbnail") { request, context in
            await HTTPReply.guarded {
                let parameters = request.uri.queryParameters
                try ThumbnailRoute.checkParameters(names: parameters.map { String($0.key) })
                return try await ThumbnailRoute.response(manager: manager, id: try context.parameters.require("id"),
                                                         query: { parameters.get($0) })
            }
        }
        return router
    }
}

/// A session as the API shows it: the stored fields, plus `live` figures while it runs.
struct SessionView: Encodable {
    let session: StoredSession
    let live: LiveFigures?

    enum Key: String, CodingKey { case live }

    func encode(to encoder: any Encoder) throws {
        try session.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(live, forKey: .live)
    }
}

/// The body of `POST …/audio` and `POST …/subtitles`: `{"track": "fr"}` (a name or language; `auto`, and
/// for subtitles `off`).
enum TrackBody {
    /// Reads the track asked for.
    /// - Throws: 400 naming `track` (or the unknown field).
    static func parse(_ body: Data) throws(APIError) -> String {
        let reader = try FieldReader.body(body, fields: ["track"])
        guard let track = try reader.string("track") else { throw .missingField("track") }
        guard !track.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidField("track", "must be a track's name or language, or auto (off for subtitles)") }
        return track
    }
}

/// The body of `POST …/seek`: `{"seconds": 12.5}`.
enum SeekBody {
    /// Reads the target position, and whether it is local (content) time (`"local": true`, PSDK
    /// seekToLocalTime: ads not counted) rather than the playback timeline's.
    /// - Throws: 400 naming `seconds` (or the unknown field).
    static func parse(_ body: Data) throws(APIError) -> (seconds: Double, local: Bool) {
        let reader = try FieldReader.body(body, fields: ["seconds", "local"])
        guard let seconds = try reader.number("seconds", minimum: 0, maximum: SessionSpec.maxSeconds) else { throw .missingField("seconds") }
        return (seconds, try reader.bool("local") ?? false)
    }
}

/// The body of `POST …/rate`: `{"rate": R}`, 0.01 to 100 (as a session's `rate`).
enum RateBody {
    /// Reads the rate.
    /// - Throws: 400 naming `rate` (or the unknown field).
    static func parse(_ body: Data) throws(APIError) -> Double {
        let reader = try FieldReader.body(body, fields: ["rate"])
        guard let rate = try reader.number("rate", minimum: PlayerConfiguration.rateRange.lowerBound, maximum: PlayerConfiguration.rateRange.upperBound) else { throw .missingField("rate") }
        return rate
    }
}

/// The body of `POST …/replace`: `{"url": U}`, an absolute http(s) URL (as a session's `url`).
enum ReplaceBody {
    /// Reads the new item's URL.
    /// - Throws: 400 naming `url` (or the unknown field).
    static func parse(_ body: Data) throws(APIError) -> String {
        let reader = try FieldReader.body(body, fields: ["url"])
        guard let url = try reader.string("url") else { throw .missingField("url") }
        try SessionSpec.validate(url: url, field: "url")
        return url
    }
}

/// The body of `POST …/resume`: `{"seconds": S, "autoplay": B}`, both optional (an empty body too): where to
/// resume (default: where the playhead is, or where a failure waiting for its resume left it) and whether to
/// play by itself (default true).
enum ResumeBody {
    /// Reads the position and autoplay.
    /// - Throws: 400 naming the field at fault.
    static func parse(_ body: Data) throws(APIError) -> (seconds: Double?, autoplay: Bool) {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return (nil, true) }
        let reader = try FieldReader.body(body, fields: ["seconds", "autoplay"])
        return (try reader.number("seconds", minimum: 0, maximum: SessionSpec.maxSeconds), try reader.bool("autoplay") ?? true)
    }
}
