/// Named policies for the CLI and the player's configuration.
public enum ABRPolicies {
    /// The policy used when none is named: "playhead".
    public static var defaultName: String { "playhead" }

    /// Every name ``make(_:)`` knows, the default first.
    public static var names: [String] {
        ["playhead", "hlsjs", "exoplayer", "bola", "dynamic", "bba", "robustmpc", "throughput"]
    }

    /// A fresh policy by name (case-insensitive); nil for an unknown name.
    public static func make(_ name: String) -> (any ABRPolicy)? {
        switch name.lowercased() {
        case "playhead": PlayheadPolicy()
        case "hlsjs": HlsJsPolicy()
        case "exoplayer": ExoPlayerPolicy()
        case "bola": BolaPolicy()
        case "dynamic": DynamicPolicy()
        case "bba": BufferBasedPolicy()
        case "robustmpc": RobustMPCPolicy()
        case "throughput": ThroughputPolicy()
        default: nil
        }
    }
}
