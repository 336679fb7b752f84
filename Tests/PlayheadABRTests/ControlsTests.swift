import PlayheadCore
import Testing

/// A policy that always answers the same index.
struct FixedPolicy: ABRPolicy {
    let name = "fixed"
    var index: Int
    mutating func choose(_ context: ABRContext) -> Int { index }
}

/// The PSDK/Brightcove controls and the frame-drop downswitch.
@Suite struct ControlsTests {
    let ladder = [300_000, 750_000, 1_200_000, 1_850_000, 2_850_000, 4_300_000]

    func context(last: Int? = nil, dropped: Double = 0, at seconds: Double = 0) -> ABRContext {
        ABRContext(ladderBitsPerSecond: ladder, segmentIndex: last == nil ? 0 : 1, lastIndex: last, droppedFrameRatio: dropped,
                   sessionSeconds: seconds)
    }

    @Test func initialBitrateTakesTheClosestRungAtOrBelowIgnoringMinAndMax() {
        var controller = ABRController(policy: FixedPolicy(index: 5),
                                       controls: ABRControls(minimumBitsPerSecond: 2_000_000, maximumBitsPerSecond: 500_000,
                                                             initialBitsPerSecond: 1_500_000))
        #expect(controller.select(context()) == ABRDecision(index: 2, bitsPerSecond: 1_200_000, reason: "initial"))
        // Later segments obey the policy and the limits (the minimum wins over a conflicting maximum).
        #expect(controller.select(context(last: 2)) == ABRDecision(index: 4, bitsPerSecond: 2_850_000, reason: "min"))
    }

    @Test func initialBitrateBelowTheLadderTakesTheLowestRung() {
        var controller = ABRController(policy: FixedPolicy(index: 3), controls: ABRControls(initialBitsPerSecond: 100_000))
        #expect(controller.select(context()).index == 0)
        #expect(controller.select(context(last: 0)) == ABRDecision(index: 3, bitsPerSecond: 1_850_000, reason: "policy"))
        controller.reset()
        #expect(controller.select(context()).reason == "initial")
    }

    @Test func withoutAnInitialBitrateThePolicyChoosesTheFirstFragment() {
        var controller = ABRController(policy: FixedPolicy(index: 4))
        #expect(controller.select(context()) == ABRDecision(index: 4, bitsPerSecond: 2_850_000, reason: "policy"))
    }

    @Test func maximumCapsThePolicy() {
        var controller = ABRController(policy: FixedPolicy(index: 5), controls: ABRControls(maximumBitsPerSecond: 2_000_000))
        #expect(controller.select(context(last: 1)) == ABRDecision(index: 3, bitsPerSecond: 1_850_000, reason: "max"))
        controller.controls.maximumBitsPerSecond = 100_000
        #expect(controller.select(context(last: 1)).index == 0)
    }

    @Test func minimumRaisesThePolicy() {
        var controller = ABRController(policy: FixedPolicy(index: 0), controls: ABRControls(minimumBitsPerSecond: 1_000_000))
        #expect(controller.select(context(last: 0)) == ABRDecision(index: 2, bitsPerSecond: 1_200_000, reason: "min"))
        controller.controls.minimumBitsPerSecond = 9_000_000
        #expect(controller.select(context(last: 0)).index == 5)
    }

    @Test func preferredPeakCapsAndZeroIsAutomatic() {
        var controller = ABRController(policy: FixedPolicy(index: 5), controls: ABRControls(preferredPeakBitsPerSecond: 1_200_000))
        #expect(controller.select(context(last: 5)) == ABRDecision(index: 2, bitsPerSecond: 1_200_000, reason: "peak"))
        controller.controls.preferredPeakBitsPerSecond = 0
        #expect(controller.select(context(last: 2)) == ABRDecision(index: 5, bitsPerSecond: 4_300_000, reason: "policy"))
    }

    @Test func lockWinsOverEverythingAndIsClamped() {
        var controller = ABRController(policy: FixedPolicy(index: 0),
                                       controls: ABRControls(maximumBitsPerSecond: 500_000, initialBitsPerSecond: 300_000, lockedIndex: 4))
        #expect(controller.select(context()) == ABRDecision(index: 4, bitsPerSecond: 2_850_000, reason: "locked"))
        controller.controls.lockedIndex = 99
        #expect(controller.select(context(last: 4)).index == 5)
        controller.controls.lockedIndex = nil
        #expect(controller.select(context(last: 5)) == ABRDecision(index: 0, bitsPerSecond: 300_000, reason: "policy"))
    }

    /// 15% of frames dropped sends the next segment one rung below the last, and the policy may not climb
    /// above that rung for 60 s (it would go straight back to the rung that dropped them); then it may.
    @Test func frameDropsForceOneRungBelowTheLastAndHoldItThere() {
        var controller = ABRController(policy: FixedPolicy(index: 5))
        #expect(controller.select(context(last: 3, dropped: 0.2, at: 10)) == ABRDecision(index: 2, bitsPerSecond: 1_200_000, reason: "frame-drops"))
        #expect(controller.select(context(last: 2, dropped: 0, at: 14)) == ABRDecision(index: 2, bitsPerSecond: 1_200_000, reason: "frame-drops"))
        #expect(controller.select(context(last: 2, dropped: 0.1, at: 69.9)).index == 2)
        #expect(controller.select(context(last: 2, dropped: 0, at: 70)) == ABRDecision(index: 5, bitsPerSecond: 4_300_000, reason: "policy"))
        #expect(controller.select(context(last: 5, dropped: 0.1, at: 71)).index == 5)
        #expect(controller.select(context(last: 0, dropped: 0.5, at: 72)).index == 5)  // nothing below the lowest
        controller.reset()
        #expect(controller.frameDropCap == nil)
    }

    @Test func bitrateChangeNotificationCarriesTheBitrate() throws {
        let decision = ABRDecision(index: 2, bitsPerSecond: 1_200_000, reason: "policy")
        let notification = try #require(decision.bitrateChangeNotification(previousBitsPerSecond: 750_000))
        #expect(notification.code.code == 302_000)
        #expect(notification.metadata["BITRATE"] == "1200000")
        #expect(decision.bitrateChangeNotification(previousBitsPerSecond: 1_200_000) == nil)
    }

    @Test func everyNamedPolicyExistsAndTheDefaultIsFirst() {
        #expect(ABRPolicies.names.first == ABRPolicies.defaultName)
        for name in ABRPolicies.names { #expect(ABRPolicies.make(name)?.name == name) }
        #expect(ABRPolicies.make("nope") == nil)
    }
}
