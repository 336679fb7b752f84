import PlayheadHLS
import PlayheadNet

/// Plays the same ladder, trace and policy through the real player (virtual clock, simulated link)
/// and through the chunk simulator, and compares the rung each chose for each segment. Shows that
/// the benchmark's policies are the ones the player runs, and where the two differ (the player also
/// fetches playlists, starts after a start threshold and does not know upcoming chunk sizes).
public enum ABRAgreement {
    /// One comparison.
    public struct Result: Sendable, Codable, Equatable {
        /// Trace name.
        public var trace: String
        /// Policy name.
        public var policy: String
        /// Rung chosen by the player for each segment (ladder index, ascending bandwidth).
        public var playerRungs: [Int]
        /// Rung chosen by the simulator for each segment.
        public var simulatorRungs: [Int]
        /// Segments where both chose the same rung.
        public var agreeing: Int { zip(playerRungs, simulatorRungs).filter { $0 == $1 }.count }
        /// Fraction of segments in agreement.
        public var agreement: Double { playerRungs.isEmpty ? 0 : Double(agreeing) / Double(max(playerRungs.count, simulatorRungs.count)) }
    }

    /// Initial bitrate both sides start from (the simulator's default, Pensieve's 750 kbit/s).
    public static let initialBitsPerSecond = ChunkSimulationSettings.defaultInitialBitsPerSecond

    /// The ladder of a multivariant playlist with every segment's size, as the simulator needs it.
    public static func video(masterURL: String, client: HTTPClient) async throws(PlayheadError) -> ChunkVideo {
        let loader = PlaylistLoader(client: client)
        let master = try await loader.load(masterURL)
        guard case let .multivariant(multivariant) = master.parsed.playlist else {
            throw .unexpectedPlaylist(url: masterURL, detail: "a multivariant playlist is needed")
        }
        let variants = multivariant.variants.sorted { $0.bandwidth < $1.bandwidth }
        var sizes: [[Int]] = []   // [rung][chunk]
        var segmentSeconds = 4.0
        for variant in variants {
            let url = try ResourceURL.resolve(variant.uri, against: master.effectiveURL)
            let media = try await loader.load(url)
            guard case let .media(playlist) = media.parsed.playlist else { throw .unexpectedPlaylist(url: url, detail: "not a media playlist") }
            segmentSeconds = Double(playlist.targetDuration ?? 4)
            var rung: [Int] = []
            for segment in playlist.segments {
                let segmentURL = try ResourceURL.resolve(segment.uri, against: media.effectiveURL)
                do { rung.append(try await client.get(segmentURL).body.count) } catch { throw .network(error) }
            }
            sizes.append(rung)
        }
        let chunks = sizes.map(\.count).min() ?? 0
        return ChunkVideo(ladderBitsPerSecond: variants.map(\.bandwidth),
                          chunkBytes: (0..<chunks).map { chunk in sizes.map { $0[chunk] } }, segmentSeconds: segmentSeconds)
    }

    /// Compares player and simulator on one trace with one policy.
    public static func compare(masterURL: String, video: ChunkVideo, trace: BandwidthTrace, policy: String,
                               client: HTTPClient) async -> Result {
        var settings = ChunkSimulationSettings()
        settings.chunkCount = video.chunkBytes.count
        guard let simulated = ABRPolicies.make(policy) else {
            return Result(trace: trace.name, policy: policy, playerRungs: [], simulatorRungs: [])
        }
        let session = ChunkSimulator.run(policy: simulated, controls: ABRControls(initialBitsPerSecond: initialBitsPerSecond),
                                         trace: trace, video: video, settings: settings)

        var configuration = PlayerConfiguration()
        configuration.mode = .demux
        configuration.buffer.minimumSeconds = settings.maxBufferSeconds
        configuration.buffer.maximumSeconds = settings.maxBufferSeconds
        var abr = ABRSettings()
        abr.policy = policy
        abr.controls.initialBitsPerSecond = initialBitsPerSecond
        configuration.abr = abr
        let player = MediaPlayer(url: masterURL, configuration: configuration, driver: VirtualTimeDriver(),
                                 network: SimulatedNetwork(client: client, link: SimulatedLink(trace: trace)))
        let report = await player.run()
        var rungs: [Int] = []
        var current = 0
        let ladder = video.ladderBitsPerSecond
        var switches = report.bitrateSwitches[...]
        for segment in 0..<video.chunkBytes.count {
            while let next = switches.first, (next.mediaSequence ?? 0) <= segment {
                current = ladder.firstIndex(of: next.toBitsPerSecond) ?? current
                switches = switches.dropFirst()
            }
            rungs.append(current)
        }
        return Result(trace: trace.name, policy: policy, playerRungs: rungs, simulatorRungs: session.records.map(\.rung))
    }
}
