import Foundation
import PlayheadCore
import Testing

@Suite struct EventsNotificationTests {
    @Test(arguments: [
        (100_000, "DRM_ERROR", NotificationType.error),
        (101_000, "PLAYBACK_ERROR", .error),
        (101_001, "NATIVE_PLAYBACK_ERROR", .error),
        (101_008, "SEEK_ERROR", .error),
        (101_009, "PAUSE_ERROR", .error),
        (101_101, "ADDITIONAL_CHANGE_FAIL", .error),
        (102_000, "INVALID_AD_ITEM", .error),
        (104_001, "AD_RESOLUTION_INVALID", .error),
        (104_005, "AD_INSERTION_FAIL", .error),
        (104_006, "AD_UNREACHABLE", .error),
        (106_000, "NATIVE_ERROR", .error),
        (107_003, "SET_CC_STYLING_ERROR", .error),
        (170_000, "AD_VERSION_INCOMPATIBLE", .error),
        (170_002, "M3U8_PARSER_ERROR", .error),
        (170_004, "HLS_SEGMENT_ERROR", .error),
        (170_005, "MR_MEDIA_SEQUENCE_OUT_SYNC", .error),
        (170_006, "MISSING_FILE_ERROR", .error),
        (170_007, "AD_EMPTY_RESPONSE", .error),
        (170_008, "AD_TIMEOUT", .error),
        (170_011, "AD_TARGET_DURATION_TOO_LONG", .error),
        (270_000, "PLAYER_NOT_READY", .warning),
        (270_001, "AD_NOT_INSERTED", .warning),
        (270_002, "AD_HLS_AUDIO_ONLY_MISSING", .warning),
        (270_003, "AD_HLS_MATCHING_BITRATE_MISSING", .warning),
        (270_005, "ASSET_FAILED_TO_CREATE", .warning),
        (270_007, "NETWORK_ERROR", .warning),
        (300_000, "PLAYBACK_START", .info),
        (300_001, "PLAYBACK_COMPLETE", .info),
        (300_002, "SEEK_START", .info),
        (300_003, "SEEK_COMPLETE", .info),
        (300_005, "PLAYER_STATE_CHANGE", .info),
        (302_000, "BITRATE_CHANGE", .info),
        (304_000, "AUDIO_TRACK_CHANGE", .info),
        (307_000, "SUBTITLES_TRACK_CHANGE", .info),
    ])
    func codeNameAndType(code: Int, name: String, type: NotificationType) throws {
        let entry = try #require(NotificationCode.lookup(code))
        #expect(entry.name == name)
        #expect(entry.type == type)
        #expect(NotificationCode.lookup(name: name) == entry)
    }

    @Test func staticsMatchTheTables() {
        #expect(NotificationCode.networkError.code == 270_007)
        #expect(NotificationCode.missingFileError.code == 170_006)
        #expect(NotificationCode.m3u8ParserError.code == 170_002)
        #expect(NotificationCode.nativeError.code == 106_000)
        #expect(NotificationCode.bitrateChange.code == 302_000)
        #expect(NotificationCode.playerStateChange.code == 300_005)
        #expect(NotificationCode.playbackStart == NotificationCode(300_000, "PLAYBACK_START"))
        #expect(NotificationCode.all.count == 40)
        #expect(Set(NotificationCode.all.map(\.code)).count == NotificationCode.all.count)
        #expect(NotificationCode.all.map(\.code) == NotificationCode.all.map(\.code).sorted())
    }

    @Test func innerNamesAndMetadataKeys() {
        #expect(NotificationCode.adInsertionFail.innerNotificationCode == .adNotInserted)
        #expect(NotificationCode.adTimeout.innerNotificationCode == .adInsertionFail)
        #expect(NotificationCode.assetFailedToCreate.innerNotificationName == "PLAYBACK_ERROR")
        #expect(NotificationCode.playbackStart.innerNotificationName == nil)
        #expect(NotificationCode.drmError.metadataKeys == [.majorDRMCode, .minorDRMCode, .description])
        #expect(NotificationCode.missingFileError.metadataKeys == [.description, .url, .internalError])
        #expect(NotificationCode.bitrateChange.metadataKeys == [.bitrate])
        #expect(NotificationCode.hlsSegmentError.subrange == 70)
        // Every named inner notification is itself in the tables.
        for entry in NotificationCode.all where entry.innerNotificationName != nil {
            #expect(entry.innerNotificationCode != nil, "\(entry)")
        }
    }

    @Test func lookupOfUnknownAndCustomCodes() {
        #expect(NotificationCode.lookup(300_004) == nil)
        #expect(NotificationCode.lookup(99_999) == nil)
        let custom = NotificationCode(299_001, "MY_WARNING")
        #expect(custom.type == .warning)
        #expect(NotificationCode(99_999, "OUTSIDE").type == .info)
        let notification = PlayerNotification.custom(type: .warning, code: 99_999, description: "custom")
        #expect(notification.type == .warning)
        #expect(notification[.description] == "custom")
    }

    @Test func factoriesFillTheKeysOfTheirCode() {
        let missing = PlayerNotification.missingFile(url: "http://o/a.ts", status: 404)
        #expect(missing.code == .missingFileError && missing.type == .error && missing.name == "MISSING_FILE_ERROR")
        #expect(missing[.url] == "http://o/a.ts" && missing[.httpStatus] == "404")
        let network = PlayerNotification.networkError(url: "http://o/b.ts", description: "timeout")
        #expect(network.type == .warning && network[.url] == "http://o/b.ts" && network[.description] == "timeout")
        #expect(PlayerNotification.parserError(description: "bad tag").code == .m3u8ParserError)
        #expect(PlayerNotification.bitrateChange(bitsPerSecond: 800_000)[.bitrate] == "800000")
        let change = PlayerNotification.stateChange(to: .error, inner: missing)
        #expect(change.type == .info && change[.state] == "error" && change.innerNotification == missing)
    }

    @Test func innerNotificationNestsInJSONAndReadsBack() throws {
        let cause = PlayerNotification(code: .adNotInserted, playerTime: 2)
        let failure = PlayerNotification(code: .adTimeout, inner: PlayerNotification(code: .adInsertionFail, inner: cause, playerTime: 2), playerTime: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(failure)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["code"] as? Int == 170_008)
        #expect(object["type"] as? String == "ERROR")
        let inner = try #require(object["innerNotification"] as? [String: Any])
        #expect(inner["name"] as? String == "AD_INSERTION_FAIL")
        let innermost = try #require(inner["innerNotification"] as? [String: Any])
        #expect(innermost["name"] as? String == "AD_NOT_INSERTED")
        #expect(innermost["type"] as? String == "WARN")
        #expect(innermost["innerNotification"] == nil)
        let decoded = try JSONDecoder().decode(PlayerNotification.self, from: data)
        #expect(decoded == failure)
        #expect(decoded.code.innerNotificationName == "AD_INSERTION_FAIL")
    }

    @Test func historyIsBoundedAndCircular() {
        var history = NotificationHistory(capacity: 3)
        for index in 1...5 {
            history.append(PlayerNotification(code: .playbackStart, metadata: ["N": "\(index)"]))
        }
        #expect(history.items.map { $0.metadata["N"] } == ["3", "4", "5"])
        #expect(history.droppedCount == 2)
        #expect(history.count == 3 && history.capacity == 3)
        #expect(history.last?.metadata["N"] == "5")
        #expect(NotificationHistory().capacity == NotificationHistory.defaultCapacity)
        #expect(NotificationHistory.defaultCapacity == 1000)
    }
}
