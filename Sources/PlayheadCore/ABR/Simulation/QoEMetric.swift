import Foundation

/// The literature's per-chunk QoE (Pensieve, MPC): utility of the chunk's bitrate − penalty × rebuffer
/// seconds − |utility change| from the previous chunk.
public enum QoEMetric: String, Sendable, CaseIterable, Codable {
    /// Utility = bitrate in Mbit/s; 4.3 per stall second.
    case lin
    /// Utility = ln(bitrate / lowest bitrate); 2.66 per stall second.
    case log
    /// Utility from Pensieve's HD table (1, 2, 3, 12, 15, 20 for its six rungs); 8 per stall second.
    case hd

    /// Pensieve's HD utilities for its six-rung ladder.
    public static let hdUtilities = [1.0, 2.0, 3.0, 12.0, 15.0, 20.0]

    /// Penalty per second of rebuffering.
    public var rebufferPenalty: Double {
        switch self {
        case .lin: 4.3
        case .log: 2.66
        case .hd: 8
        }
    }

    /// Utility of each rung of `ladderBitsPerSecond`. For `.hd` on a ladder that is not six rungs long,
    /// the table is read by rank (linear interpolation between its entries).
    public func utilities(_ ladderBitsPerSecond: [Int]) -> [Double] {
        switch self {
        case .lin:
            return ladderBitsPerSecond.map { Double($0) / 1_000_000 }
        case .log:
            let lowest = Double(ladderBitsPerSecond.first ?? 1)
            return ladderBitsPerSecond.map { Foundation.log(Double($0) / lowest) }
        case .hd:
            let count = ladderBitsPerSecond.count
            guard count != Self.hdUtilities.count else { return Self.hdUtilities }
            guard count > 1 else { return [Self.hdUtilities[0]] }
            return (0..<count).map { rank in
                let position = Double(rank) * Double(Self.hdUtilities.count - 1) / Double(count - 1)
                let low = Int(position.rounded(.down))
                let high = min(low + 1, Self.hdUtilities.count - 1)
                let weight = position - Double(low)
                return Self.hdUtilities[low] * (1 - weight) + Self.hdUtilities[high] * weight
            }
        }
    }

    /// One chunk's reward.
    public func reward(utility: Double, previousUtility: Double, rebufferSeconds: Double) -> Double {
        utility - rebufferPenalty * rebufferSeconds - abs(utility - previousUtility)
    }
}
