import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadNet

/// `playhead catalogue video|playlist ID|ref:REF`: looks a video or playlist up in a Brightcove-style
/// playback service and prints the model and the source the selection policy chooses.
struct CatalogueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Look up a video or playlist in a Brightcove-style playback service (F29) and print it with the source chosen.",
        discussion: """
        GET BASE/playback/v1/accounts/ACCOUNT/videos/ID (or ref:REF) and …/playlists/ID with Accept: \
        application/json;pk=POLICY_KEY and, with --auth-token, Authorization: Bearer TOKEN. The source chosen \
        is the first HLS source, HTTPS preferred (the PSDK's default policy); sources that need DRM are passed \
        over, and MP4 or DASH alone is no playable source (Playhead plays HLS). \
        Exit status: 0 found (for a video, with a playable source), 1 the service answered an error, the answer \
        was malformed, or the video has no playable source, 2 usage.
        """,
        subcommands: [Video.self, PlaylistLookup.self]
    )

    /// Options shared by the lookups and `playhead queue`.
    struct ServiceOptions: ParsableArguments {
        @Option(help: "The account id.")
        var account: String?

        @Option(name: .customLong("policy-key"), help: "The policy key (sent as Accept: application/json;pk=KEY).")
        var policyKey: String?

        @Option(name: .customLong("auth-token"), help: "A playback authorization token (sent as Authorization: Bearer TOKEN).")
        var authToken: String?

        @Option(name: .customLong("base-url"), help: "The service's base URL (default \(PlaybackService.defaultBaseURL)).")
        var baseURL: String = PlaybackService.defaultBaseURL

        @Option(name: .customLong("prefer-scheme"), help: "Source selection: the URL scheme preferred among HLS sources: https (the default), http, or any (the first HLS source).")
        var preferScheme: String = "https"

        /// Checks that the service can be asked (`what` names what needs it, for the message).
        func validateService(for what: String) throws {
            guard let account, !account.isEmpty else { throw ValidationError("\(what) needs --account") }
            guard let policyKey, !policyKey.isEmpty else { throw ValidationError("\(what) needs --policy-key") }
            let lower = baseURL.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file:") else {
                throw ValidationError("--base-url must be an http(s) URL, got \"\(baseURL)\"")
            }
            _ = try policy()
        }

        func policy() throws -> SourceSelectionPolicy {
            switch preferScheme.lowercased() {
            case "any": return SourceSelectionPolicy(preferredScheme: nil)
            case "http", "https": return SourceSelectionPolicy(preferredScheme: preferScheme.lowercased())
            default: throw ValidationError("--prefer-scheme takes https, http or any, got \"\(preferScheme)\"")
            }
        }

        func service(client: HTTPClient) -> PlaybackService {
            PlaybackService(baseURL: baseURL, accountId: account ?? "", policyKey: policyKey ?? "", authToken: authToken, client: client)
        }
    }

    /// `playhead catalogue video ID|ref:REF`.
    struct Video: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "video", abstract: "Look up one video by id or ref:REFERENCE_ID.")

        @Argument(help: "The video id, or ref: and its reference id.")
        var id: String

        @OptionGroup var service: ServiceOptions

        @Option(name: .customLong("bumper-id"), help: "A bumper to look up with it (its custom field bumper_id takes precedence, as in the PSDK): an id or ref:REF.")
        var bumperId: String?

        @Flag(help: "Print JSON: {\"video\": …, \"source\": …, \"sourceError\": …, \"bumper\": …}.")
        var json = false

        func validate() throws {
            guard CatalogueReference(parsing: id) != nil else { throw ValidationError("give a video id or ref:REFERENCE_ID, got \"\(id)\"") }
            if let bumperId, CatalogueReference(parsing: bumperId) == nil { throw ValidationError("--bumper-id: give an id or ref:REF") }
            try service.validateService(for: "catalogue video")
        }

        func run() async throws {
            let client = HTTPClient()
            defer { client.shutdown() }
            let playback = service.service(client: client)
            let video: CatalogueVideo
            do { video = try await playback.findVideo(CatalogueReference(parsing: id)!) } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
            var bumper: CatalogueVideo?
            do { bumper = try await playback.findBumper(for: video, configured: bumperId.flatMap(CatalogueReference.init(parsing:))) } catch {
                printError("bumper: \(error)")
                throw ExitCode(1)
            }
            let policy = try service.policy()
            let choice = CatalogueOutput.choose(policy, video)
            let out = OutputBuffer(fd: OutputBuffer.standardOutput)
            if json {
                var object: [String: Any] = ["video": try CatalogueOutput.jsonObject(video)]
                switch choice {
                case let .success(source): object["source"] = try CatalogueOutput.jsonObject(source)
                case let .failure(error): object["sourceError"] = error.description
                }
                if let bumper { object["bumper"] = try CatalogueOutput.jsonObject(bumper) }
                out.write(CatalogueOutput.text(object) + "\n")
            } else {
                out.write(CatalogueOutput.describe(video, choice: choice))
                if let bumper { out.write("bumper:\n" + CatalogueOutput.describe(bumper, choice: CatalogueOutput.choose(policy, bumper), indent: "  ")) }
            }
            out.flush()
            if case let .failure(error) = choice {
                printError("\(error)")
                throw ExitCode(1)
            }
        }
    }

    /// `playhead catalogue playlist ID|ref:REF`.
    struct PlaylistLookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "playlist", abstract: "Look up a playlist (or a page of it) by id or ref:REFERENCE_ID.")

        @Argument(help: "The playlist id, or ref: and its reference id.")
        var id: String

        @OptionGroup var service: ServiceOptions

        @Option(parsing: .unconditional, help: "At most this many videos (paging).")
        var limit: Int?

        @Option(parsing: .unconditional, help: "From this index of the playlist (paging).")
        var offset: Int?

        @Flag(help: "Print JSON: {\"playlist\": …, \"sources\": [URL or null per video]}.")
        var json = false

        func validate() throws {
            guard CatalogueReference(parsing: id) != nil else { throw ValidationError("give a playlist id or ref:REFERENCE_ID, got \"\(id)\"") }
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, got \(limit)") }
            if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more, got \(offset)") }
            try service.validateService(for: "catalogue playlist")
        }

        func run() async throws {
            let client = HTTPClient()
            defer { client.shutdown() }
            let playlist: CataloguePlaylist
            do { playlist = try await service.service(client: client).findPlaylist(CatalogueReference(parsing: id)!, limit: limit, offset: offset) } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
            let policy = try service.policy()
            let choices = playlist.videos.map { video in CatalogueOutput.choose(policy, video) }
            let out = OutputBuffer(fd: OutputBuffer.standardOutput)
            if json {
                let object: [String: Any] = ["playlist": try CatalogueOutput.jsonObject(playlist),
                                             "sources": choices.map { (try? $0.get().src) as Any? ?? NSNull() }]
                out.write(CatalogueOutput.text(object) + "\n")
            } else {
                let first = (playlist.offset ?? 0)
                out.write("playlist \(playlist.id)" + (playlist.name.map { " \"\($0)\"" } ?? "") + (playlist.referenceId.map { " (ref:\($0))" } ?? "")
                          + ": \(playlist.videos.count) videos" + (playlist.count.map { " of \($0)" } ?? "")
                          + (playlist.skipped.isEmpty ? "" : ", \(playlist.skipped.count) skipped")
                          + (playlist.entryCount == 0 ? "" : " (\(first)–\(first + playlist.entryCount - 1))")
                          + (playlist.hasMore == true ? "; more after this page" : "") + "\n")
                for (video, choice) in zip(playlist.videos, choices) {
                    out.write(CatalogueOutput.describe(video, choice: choice, indent: "  "))
                }
                for entry in playlist.skipped {
                    out.write("  skipped [\(entry.index)]\(entry.id.map { " \($0)" } ?? ""): \(entry.reason)\n")
                }
            }
            out.flush()
            for entry in playlist.skipped {
                printError("warning: playlist entry \(entry.index)\(entry.id.map { " (video \($0))" } ?? "") is not a readable video, skipped: \(entry.reason)")
            }
        }
    }
}

/// Text and JSON forms of the catalogue models, for `catalogue` and `queue`.
enum CatalogueOutput {
    /// The source `policy` chooses for `video`, or why there is none.
    static func choose(_ policy: SourceSelectionPolicy, _ video: CatalogueVideo) -> Result<CatalogueSource, CatalogueError> {
        do throws(CatalogueError) { return .success(try policy.select(from: video)) } catch { return .failure(error) }
    }

    /// A human description of `video` and the source chosen (or why none was).
    static func describe(_ video: CatalogueVideo, choice: Result<CatalogueSource, CatalogueError>, indent: String = "") -> String {
        var lines = ["video \(video.id)" + (video.name.map { " \"\($0)\"" } ?? "") + (video.referenceId.map { " (ref:\($0))" } ?? "")
                     + (video.durationSeconds.map { String(format: ", %.3f s", $0) } ?? "")]
        let chosen = try? choice.get()
        lines.append("  sources: \(video.sources.count)")
        for (index, source) in video.sources.enumerated() {
            var line = "    [\(index)] " + SourceSelectionPolicy.summary(source)
            let details = [source.container, source.codecs].compactMap { $0 }
            if !details.isEmpty { line += " (\(details.joined(separator: ", ")))" }
            if let chosen, chosen == source { line += "  ← chosen" }
            lines.append(line)
        }
        switch choice {
        case let .success(source): lines.append("  chosen: \(source.src ?? "")")
        case let .failure(error): lines.append("  no playable source: \(error)")
        }
        for track in video.textTracks {
            lines.append("  text track: \(track.kind ?? "?") \(track.language ?? "?") \"\(track.label ?? "")\"\(track.isDefault ? " default" : "") \(track.src ?? "(no URL)")")
        }
        for cue in video.cuePoints {
            lines.append(String(format: "  cue point: %@ %@ at %.3f s", cue.type ?? "?", cue.name ?? cue.id ?? "", cue.timeSeconds) + (cue.forceStop ? " (force stop)" : ""))
        }
        if !video.customFields.isEmpty {
            lines.append("  custom fields: " + video.customFields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
        }
        if !video.tags.isEmpty { lines.append("  tags: " + video.tags.joined(separator: ", ")) }
        if let poster = video.posterURL { lines.append("  poster: \(poster)") }
        return lines.map { indent + $0 }.joined(separator: "\n") + "\n"
    }

    /// An encodable value as a JSON object (for nesting in the command's output).
    static func jsonObject<T: Encodable>(_ value: T) throws -> Any {
        try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value))
    }

    /// Pretty, key-sorted JSON text of a JSON object.
    static func text(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
