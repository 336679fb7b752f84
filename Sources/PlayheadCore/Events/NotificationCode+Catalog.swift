// The PSDK guide's notification code tables, one static per row.

extension NotificationCode {
    // MARK: Errors, 1xxxxx

    /// 100000 `DRM_ERROR`: a DRM failure; metadata MAJOR_DRM_CODE, MINOR_DRM_CODE, DESCRIPTION.
    public static let drmError = NotificationCode(100_000, "DRM_ERROR", keys: [.majorDRMCode, .minorDRMCode, .description])
    /// 101000 `PLAYBACK_ERROR`: playback failed.
    public static let playbackError = NotificationCode(101_000, "PLAYBACK_ERROR")
    /// 101001 `NATIVE_PLAYBACK_ERROR`: the media engine failed; DESCRIPTION, INTERNAL_ERROR, URL.
    public static let nativePlaybackError = NotificationCode(101_001, "NATIVE_PLAYBACK_ERROR", keys: [.description, .internalError, .url])
    /// 101008 `SEEK_ERROR`: a seek failed; DESCRIPTION.
    public static let seekError = NotificationCode(101_008, "SEEK_ERROR", keys: [.description])
    /// 101009 `PAUSE_ERROR`: a pause failed.
    public static let pauseError = NotificationCode(101_009, "PAUSE_ERROR")
    /// 101101 `ADDITIONAL_CHANGE_FAIL`: a change was refused; inner PLAYER_NOT_READY.
    public static let additionalChangeFail = NotificationCode(101_101, "ADDITIONAL_CHANGE_FAIL", inner: "PLAYER_NOT_READY")
    /// 102000 `INVALID_AD_ITEM`: an ad item is not usable.
    public static let invalidAdItem = NotificationCode(102_000, "INVALID_AD_ITEM")
    /// 104001 `AD_RESOLUTION_INVALID`: ad metadata had a bad format; inner AD_NOT_INSERTED.
    public static let adResolutionInvalid = NotificationCode(104_001, "AD_RESOLUTION_INVALID", inner: "AD_NOT_INSERTED")
    /// 104005 `AD_INSERTION_FAIL`: ad resolving failed; inner AD_NOT_INSERTED.
    public static let adInsertionFail = NotificationCode(104_005, "AD_INSERTION_FAIL", inner: "AD_NOT_INSERTED")
    /// 104006 `AD_UNREACHABLE`: the ad server could not be reached.
    public static let adUnreachable = NotificationCode(104_006, "AD_UNREACHABLE")
    /// 106000 `NATIVE_ERROR`: a low-level (here: FFmpeg or libcurl) error; INTERNAL_ERROR.
    public static let nativeError = NotificationCode(106_000, "NATIVE_ERROR", keys: [.internalError])
    /// 107002 `SET_CC_VISIBILITY_ERROR`: closed-caption visibility could not change.
    public static let setCCVisibilityError = NotificationCode(107_002, "SET_CC_VISIBILITY_ERROR")
    /// 107003 `SET_CC_STYLING_ERROR`: closed-caption styling could not change; inner NATIVE_ERROR.
    public static let setCCStylingError = NotificationCode(107_003, "SET_CC_STYLING_ERROR", inner: "NATIVE_ERROR")
    /// 170000 `AD_VERSION_INCOMPATIBLE`: the ad's HLS version exceeds the content's; inner AD_INSERTION_FAIL.
    public static let adVersionIncompatible = NotificationCode(170_000, "AD_VERSION_INCOMPATIBLE", inner: "AD_INSERTION_FAIL")
    /// 170001 `ARGUMENT_ERROR`: a bad argument.
    public static let argumentError = NotificationCode(170_001, "ARGUMENT_ERROR")
    /// 170002 `M3U8_PARSER_ERROR`: a playlist did not parse; DESCRIPTION.
    public static let m3u8ParserError = NotificationCode(170_002, "M3U8_PARSER_ERROR", keys: [.description])
    /// 170003 `WEBVTT_PARSER_ERROR`: a WebVTT document did not parse.
    public static let webVTTParserError = NotificationCode(170_003, "WEBVTT_PARSER_ERROR")
    /// 170004 `HLS_SEGMENT_ERROR`: a segment is bad (for example larger than its variant's
    /// bandwidth allows); DESCRIPTION, URL, INTERNAL_ERROR.
    public static let hlsSegmentError = NotificationCode(170_004, "HLS_SEGMENT_ERROR", keys: [.description, .url, .internalError])
    /// 170005 `MR_MEDIA_SEQUENCE_OUT_SYNC`: media sequence numbers disagree across the variants.
    public static let mediaSequenceOutOfSync = NotificationCode(170_005, "MR_MEDIA_SEQUENCE_OUT_SYNC")
    /// 170006 `MISSING_FILE_ERROR`: a file is missing or not answering (HTTP 404);
    /// DESCRIPTION, URL, INTERNAL_ERROR.
    public static let missingFileError = NotificationCode(170_006, "MISSING_FILE_ERROR", keys: [.description, .url, .internalError])
    /// 170007 `AD_EMPTY_RESPONSE`: the ad server answered with nothing; inner AD_INSERTION_FAIL.
    public static let adEmptyResponse = NotificationCode(170_007, "AD_EMPTY_RESPONSE", inner: "AD_INSERTION_FAIL")
    /// 170008 `AD_TIMEOUT`: the ad request timed out; inner AD_INSERTION_FAIL.
    public static let adTimeout = NotificationCode(170_008, "AD_TIMEOUT", inner: "AD_INSERTION_FAIL")
    /// 170009 `SUBTITLE_TRACK_CHANGE_FAIL`: the subtitle track could not change; inner PLAYER_NOT_READY.
    public static let subtitleTrackChangeFail = NotificationCode(170_009, "SUBTITLE_TRACK_CHANGE_FAIL", inner: "PLAYER_NOT_READY")
    /// 170010 `SITE_CATALYST_ERROR`: an analytics error; DESCRIPTION.
    public static let siteCatalystError = NotificationCode(170_010, "SITE_CATALYST_ERROR", keys: [.description])
    /// 170011 `AD_TARGET_DURATION_TOO_LONG`: the ad's target duration exceeds the content's;
    /// inner AD_INSERTION_FAIL.
    public static let adTargetDurationTooLong = NotificationCode(170_011, "AD_TARGET_DURATION_TOO_LONG", inner: "AD_INSERTION_FAIL")

    // MARK: Warnings, 2xxxxx

    /// 270000 `PLAYER_NOT_READY`: an operation came before the player was ready; DESCRIPTION.
    public static let playerNotReady = NotificationCode(270_000, "PLAYER_NOT_READY", keys: [.description])
    /// 270001 `AD_NOT_INSERTED`: an ad was not inserted into the stream.
    public static let adNotInserted = NotificationCode(270_001, "AD_NOT_INSERTED")
    /// 270002 `AD_HLS_AUDIO_ONLY_MISSING`: the ad has no audio-only stream; inner AD_NOT_INSERTED.
    public static let adHlsAudioOnlyMissing = NotificationCode(270_002, "AD_HLS_AUDIO_ONLY_MISSING", inner: "AD_NOT_INSERTED")
    /// 270003 `AD_HLS_MATCHING_BITRATE_MISSING`: no ad stream matches the content's bitrate;
    /// inner AD_NOT_INSERTED.
    public static let adHlsMatchingBitrateMissing = NotificationCode(270_003, "AD_HLS_MATCHING_BITRATE_MISSING", inner: "AD_NOT_INSERTED")
    /// 270005 `ASSET_FAILED_TO_CREATE`: the media asset could not be made; inner PLAYBACK_ERROR.
    public static let assetFailedToCreate = NotificationCode(270_005, "ASSET_FAILED_TO_CREATE", inner: "PLAYBACK_ERROR")
    /// 270006 `SITECATALYST_WARNING`: an analytics warning; DESCRIPTION.
    public static let siteCatalystWarning = NotificationCode(270_006, "SITECATALYST_WARNING", keys: [.description])
    /// 270007 `NETWORK_ERROR`: data could not be had from the network; URL.
    public static let networkError = NotificationCode(270_007, "NETWORK_ERROR", keys: [.url])

    // MARK: Information, 3xxxxx

    /// 300000 `PLAYBACK_START`: playback started.
    public static let playbackStart = NotificationCode(300_000, "PLAYBACK_START")
    /// 300001 `PLAYBACK_COMPLETE`: playback completed.
    public static let playbackComplete = NotificationCode(300_001, "PLAYBACK_COMPLETE")
    /// 300002 `SEEK_START`: a seek began.
    public static let seekStart = NotificationCode(300_002, "SEEK_START")
    /// 300003 `SEEK_COMPLETE`: a seek completed.
    public static let seekComplete = NotificationCode(300_003, "SEEK_COMPLETE")
    /// 300005 `PLAYER_STATE_CHANGE`: the status changed; when it became `error`, the inner
    /// notification is the error that caused it.
    public static let playerStateChange = NotificationCode(300_005, "PLAYER_STATE_CHANGE")
    /// 302000 `BITRATE_CHANGE`: the video bitrate changed; BITRATE.
    public static let bitrateChange = NotificationCode(302_000, "BITRATE_CHANGE", keys: [.bitrate])
    /// 304000 `AUDIO_TRACK_CHANGE`: the audio track changed.
    public static let audioTrackChange = NotificationCode(304_000, "AUDIO_TRACK_CHANGE")
    /// 307000 `SUBTITLES_TRACK_CHANGE`: the subtitles track changed.
    public static let subtitlesTrackChange = NotificationCode(307_000, "SUBTITLES_TRACK_CHANGE")

    /// Every code of the guide's tables, in numeric order.
    public static let all: [NotificationCode] = [
        drmError, playbackError, nativePlaybackError, seekError, pauseError, additionalChangeFail,
        invalidAdItem, adResolutionInvalid, adInsertionFail, adUnreachable, nativeError,
        setCCVisibilityError, setCCStylingError, adVersionIncompatible, argumentError, m3u8ParserError,
        webVTTParserError, hlsSegmentError, mediaSequenceOutOfSync, missingFileError, adEmptyResponse,
        adTimeout, subtitleTrackChangeFail, siteCatalystError, adTargetDurationTooLong,
        playerNotReady, adNotInserted, adHlsAudioOnlyMissing, adHlsMatchingBitrateMissing,
        assetFailedToCreate, siteCatalystWarning, networkError,
        playbackStart, playbackComplete, seekStart, seekComplete, playerStateChange, bitrateChange,
        audioTrackChange, subtitlesTrackChange,
    ]
}
