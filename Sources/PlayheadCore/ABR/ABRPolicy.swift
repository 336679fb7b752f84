/// Chooses the rendition of the next segment. Called once per segment boundary, so switches happen
/// only there. Policies are values: each player (or simulated session) owns its own copy.
public protocol ABRPolicy: Sendable {
    /// The policy's short name, as ``ABRPolicies`` lists it.
    var name: String { get }
    /// The ladder index for the next segment.
    mutating func choose(_ context: ABRContext) -> Int
    /// Forgets all history (a new session or a seek). Default: does nothing.
    mutating func reset()
}

extension ABRPolicy {
    /// Does nothing: stateless policies have nothing to forget.
    public mutating func reset() {}
}
