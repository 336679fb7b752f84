/// Applies controls and frame-drop downswitch around a policy; what the player calls at each segment
/// boundary.
///
/// Order: a manual lock wins over everything; the first fragment follows the initial bitrate when one is
/// set (ignoring minimum and maximum); otherwise the policy chooses, then a frame-drop downswitch (which
/// also caps the rungs below the one that dropped frames for ``frameDropCapSeconds``), then
/// the preferred peak, the maximum and the minimum apply in that order (so the minimum wins when it and
/// a cap conflict).
public struct ABRController: Sendable {
    /// The policy wrapped.
    public private(set) var policy: any ABRPolicy
    /// The controls applied; may be changed between segments.
    public var controls: ABRControls
    /// Whether a decision has been made since creation or the last ``reset()``.
    public private(set) var hasDecided = false
    /// After a frame-drop downswitch: the highest rung allowed, and until what session time (so the
    /// throughput rule does not climb straight back to the rung that dropped frames).
    public private(set) var frameDropCap: (index: Int, untilSeconds: Double)?
    /// How long a frame-drop downswitch caps the rungs: 60 s (hls.js caps the level for the session;
    /// ExoPlayer excludes a failing track for 60 s).
    public static let frameDropCapSeconds = 60.0

    /// Creates a controller.
    /// - Parameters:
    ///   - policy: The policy consulted for each segment.
    ///   - controls: The controls applied around it. Default: none.
    public init(policy: any ABRPolicy, controls: ABRControls = .init()) {
        self.policy = policy
        self.controls = controls
    }

    /// Forgets history (new session or seek): the next decision is a first fragment again.
    public mutating func reset() {
        policy.reset()
        hasDecided = false
        frameDropCap = nil
    }

    /// The rendition of the next segment.
    /// - Parameter context: What the player knows now; `ladderBitsPerSecond` must not be empty.
    public mutating func select(_ context: ABRContext) -> ABRDecision {
        let ladder = context.ladderBitsPerSecond
        precondition(!ladder.isEmpty, "ABRController needs a ladder")
        defer { hasDecided = true }
        func decision(_ index: Int, _ reason: String) -> ABRDecision {
            ABRDecision(index: index, bitsPerSecond: ladder[index], reason: reason)
        }
        if let locked = controls.lockedIndex {
            return decision(min(max(locked, 0), ladder.count - 1), "locked")
        }
        let isFirst = !hasDecided && context.lastIndex == nil
        if isFirst, let initial = controls.initialBitsPerSecond {
            return decision(context.highestIndex(atMost: Double(initial)), "initial")
        }
        var index = min(max(policy.choose(context), 0), ladder.count - 1)
        var reason = "policy"
        if let last = context.lastIndex, context.droppedFrameRatio >= controls.dropDownswitchRatio,
           index >= last, last > 0 {
            index = last - 1
            reason = "frame-drops"
            frameDropCap = (index, context.sessionSeconds + Self.frameDropCapSeconds)
        } else if let cap = frameDropCap {
            if context.sessionSeconds >= cap.untilSeconds {
                frameDropCap = nil
            } else if index > cap.index {
                index = cap.index
                reason = "frame-drops"
            }
        }
        if controls.preferredPeakBitsPerSecond > 0, ladder[index] > controls.preferredPeakBitsPerSecond {
            index = context.highestIndex(atMost: Double(controls.preferredPeakBitsPerSecond))
            reason = "peak"
        }
        if let maximum = controls.maximumBitsPerSecond, ladder[index] > maximum {
            index = context.highestIndex(atMost: Double(maximum))
            reason = "max"
        }
        if let minimum = controls.minimumBitsPerSecond, ladder[index] < minimum {
            index = ladder.firstIndex { $0 >= minimum } ?? ladder.count - 1
            reason = "min"
        }
        return decision(index, reason)
    }
}
