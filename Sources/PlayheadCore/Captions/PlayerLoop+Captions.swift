import PlayheadMedia

/// Closed captions (F23): the CEA-608 captions the content's video carries (A/53 cc_data in its SEI,
/// which the decoder exports with each frame) are decoded to text by FFmpeg's own `cc_dec`
/// (PlayheadMedia's ``CaptionDecoder``, one for each of CC1–CC4) as the frames are decoded, placed on the content timeline
/// through the segment's timestamp anchor, and reported: a `closedCaption` custom event for each cue as
/// it is decoded and the report's `captions`. `cc_dec` gives a cue once it leaves the screen (buffered
/// mode), so the events come after the cue's start: they say what was on screen when, they do not show
/// it at that time. Decode mode only (the others decode no video, or only keyframes).
extension MediaPlayer {
    /// Feeds a decoded content video frame's captions, if it carries any, and reports the cues that come out.
    func takeCaptions(of frame: DecodedFrame, from segment: BufferedSegment) {
        guard configuration.mode == .decode, frame.kind == .video, segment.placement.source == .content, !state.captionsDeclaredNone else { return }
        guard frame.closedCaptions != nil || !state.captions.isEmpty else { return }
        if state.captions.isEmpty {
            guard let decoders = try? (1...4).map({ channel throws(MediaError) in try CaptionDecoder(channel: channel) }) else { return }
            state.captions = decoders
            report.captions = CaptionReport()
        }
        for decoder in state.captions { reportCaptionCues(decoder.decode(frame), channel: decoder.channel, anchorKey: segment.anchorKey) }
        state.captionAnchorKey = segment.anchorKey
    }

    /// The cue left on screen at the end of the session (decoded when the decoder is drained): it ends
    /// where playback did (cc_dec gives it the time of the last frame decoded, ahead of the playhead).
    func finishCaptions() {
        guard let key = state.captionAnchorKey else { return }
        let end = state.timeline.localSeconds(atVirtual: state.position(at: driver.now))
        for decoder in state.captions { reportCaptionCues(decoder.finish(), channel: decoder.channel, anchorKey: key, endingAt: end) }
    }

    /// A seek: the caption on screen where the seek left ends there (it was lost), and the decoder
    /// starts afresh with the media of the landing.
    func resetCaptions(leaving position: Double) {
        guard let key = state.captionAnchorKey else { return }
        let end = state.timeline.localSeconds(atVirtual: position)
        for decoder in state.captions { reportCaptionCues(decoder.finish(), channel: decoder.channel, anchorKey: key, endingAt: end) }
    }

    /// Reports `cues` of caption channel `channel` (times on the frames' timestamps) on the content timeline, from
    /// 0 (cc_dec may time a roll-up's first screen before the first frame) or from where playback started or a
    /// seek landed (a cue over before it came from frames decoded only to reach it), and, when `endingAt` is given
    /// (the caption still on screen where a seek left or playback ended), to that content time: cc_dec's drain
    /// gives it the length of the caption before it, which says nothing of how long it stayed.
    private func reportCaptionCues(_ cues: [CaptionCue], channel: Int, anchorKey: Int, endingAt limit: Double? = nil) {
        for cue in cues {
            guard var start = anchor.pinnedContentSeconds(forPTS: cue.start, discontinuitySequence: anchorKey),
                  var end = anchor.pinnedContentSeconds(forPTS: cue.end, discontinuitySequence: anchorKey) else { continue }
            start = max(start, state.captionsFrom ?? 0, 0)
            if let limit { end = limit }
            guard end > start else { continue }
            let rendition = state.captionRenditions["CC\(channel)"]
            let record = CaptionCueRecord(channel: "CC\(channel)", startSeconds: Self.micro(start), endSeconds: Self.micro(end), text: cue.text,
                                          name: rendition?.name, language: rendition?.language)
            // A seek back decodes the same captions again: each cue is reported once.
            guard state.captionKeys.insert("\(record.channel)|\(record.startSeconds)|\(record.endSeconds)|\(record.text)").inserted else { continue }
            report.captions?.cues.append(record)
            var payload = ["channel": record.channel, "startSeconds": String(record.startSeconds), "endSeconds": String(record.endSeconds), "text": record.text]
            payload["name"] = record.name
            payload["language"] = record.language
            bus.post(.custom(name: "closedCaption", payload: payload))
        }
    }
}
