import PlayheadMedia
import Testing

/// `emsg` boxes read from the top level of fMP4 bytes.
@Suite struct EventMessageBoxTests {
    @Test func bothVersionsReadBackAsWritten() {
        let v0 = EventMessageBox(version: 0, schemeIdURI: EventMessageBox.id3Scheme, value: "1", timescale: 1000, presentationTime: 500,
                                 eventDuration: 0xFFFF_FFFF, id: 3, messageData: [1, 2, 3])
        let v1 = EventMessageBox(version: 1, schemeIdURI: "urn:x", value: "", timescale: 90000, presentationTime: 1 << 33 + 5,
                                 eventDuration: 10, id: 4, messageData: [])
        // Between other top-level boxes (an ftyp-like box and a free box).
        let other: [UInt8] = [0, 0, 0, 12] + Array("styp".utf8) + [1, 2, 3, 4]
        let free: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
        let boxes = EventMessageBox.boxes(in: other + v0.bytes + free + v1.bytes)
        #expect(boxes == [v0, v1])
        #expect(v0.seconds(segmentStartSeconds: 10) == 10.5)
        #expect(v1.seconds(segmentStartSeconds: 10) == Double(1 << 33 + 5) / 90000)
    }

    @Test func aBoxCutShortEndsTheScanAndTSBytesHaveNone() {
        let box = EventMessageBox(version: 1, schemeIdURI: EventMessageBox.id3Scheme, value: "", timescale: 1, presentationTime: 1,
                                  eventDuration: 0, id: 1, messageData: [9]).bytes
        #expect(EventMessageBox.boxes(in: Array(box.dropLast(3))).isEmpty)
        // A box whose strings run to its end without their NUL is not read.
        var broken = box
        broken.removeLast(2)
        broken[3] = UInt8(broken.count)
        #expect(EventMessageBox.boxes(in: broken).isEmpty)
        #expect(EventMessageBox.boxes(in: [0x47] + [UInt8](repeating: 0xFF, count: 187)).isEmpty)
        #expect(EventMessageBox(version: 0, schemeIdURI: "", value: "", timescale: 0, presentationTime: 1, eventDuration: 0, id: 0, messageData: [])
            .seconds(segmentStartSeconds: 0) == nil)
    }
}
