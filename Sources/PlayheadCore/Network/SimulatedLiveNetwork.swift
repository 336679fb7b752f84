import Foundation
import PlayheadHLS
import PlayheadNet

/// Plays a VOD media playlist as a live stream on the virtual clock (through ``LiveWindow``): at session time t the playlist
/// lists the segments that "exist" by then — `initialSegments` at t = 0, then one more each time a
/// segment's duration has passed — with EXT-X-MEDIA-SEQUENCE moving as a window of `windowSegments`
/// slides (nil keeps them all, an event playlist), and EXT-X-ENDLIST once every segment is out.
/// Tags that go with a segment (cues, date ranges, program date times) stay with it. Only playlists
/// whose URL starts with `prefix` are windowed (not the ads); everything else passes through.
public struct SimulatedLiveNetwork: PlayerNetwork {
    /// The network underneath (bytes and transfer costs).
    public let inner: any PlayerNetwork
    /// Media playlists under this URL prefix are played live.
    public let prefix: String
    /// Segments listed at session time 0.
    public let initialSegments: Int
    /// Segments kept in the window (nil: all since the start).
    public let windowSegments: Int?

    /// Creates the network.
    public init(inner: any PlayerNetwork, prefix: String, initialSegments: Int = 3, windowSegments: Int? = nil) {
        self.inner = inner
        self.prefix = prefix
        self.initialSegments = max(1, initialSegments)
        self.windowSegments = windowSegments
    }

    /// Fetches `url`; a VOD media playlist under the prefix comes back as its live window at `sessionSeconds`.
    public func fetch(_ url: String, range: ByteRangeRequest?, at sessionSeconds: Double) async throws(PlayheadError) -> NetworkTransfer {
        var transfer = try await inner.fetch(url, range: range, at: sessionSeconds)
        guard url.hasPrefix(prefix), range == nil, let text = String(bytes: transfer.body, encoding: .utf8),
              LiveWindow.isVODMediaPlaylist(text) else { return transfer }
        transfer.body = Array(Self.window(of: text, at: sessionSeconds, initialSegments: initialSegments, windowSegments: windowSegments).utf8)
        return transfer
    }

    /// The live window of VOD playlist `text` at session time `seconds` (``LiveWindow`` without looping).
    public static func window(of text: String, at seconds: Double, initialSegments: Int, windowSegments: Int?) -> String {
        LiveWindow(initialSegments: initialSegments, windowSegments: windowSegments).playlist(from: text, at: seconds)
    }
}
