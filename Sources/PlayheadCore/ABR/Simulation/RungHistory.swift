/// What the optimum solvers keep of every chunk's states to read the best sequence back: each state's
/// rung and its parent (an index into the previous chunk's states).
struct RungHistory {
    private var layers: [(rungs: [UInt8], parents: [Int32])] = []

    /// Records one chunk's states.
    mutating func append(rungs: [UInt8], parents: [Int32]) {
        layers.append((rungs, parents))
    }

    /// The rung of every chunk on the way to state `slot` of the last chunk recorded.
    func sequence(endingAt slot: Int) -> [Int] {
        var rungs = [Int](repeating: 0, count: layers.count)
        var slot = Int32(slot)
        for chunk in stride(from: layers.count - 1, through: 0, by: -1) {
            rungs[chunk] = Int(layers[chunk].rungs[Int(slot)])
            slot = layers[chunk].parents[Int(slot)]
        }
        return rungs
    }
}
