import Foundation
import PlayheadCore

/// The SVG plot of the normalised-QoE_lin CDF, one line per policy.
enum BenchPlot {
    static let colors = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"]

    /// An SVG document: x from 0 to 1.1 (values outside are clamped to the edges), y from 0 to 1.
    static func cdf(_ set: BenchSetResult) -> String {
        let width = 640.0, height = 420.0, left = 60.0, right = 170.0, top = 30.0, bottom = 50.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let xMax = 1.1
        func x(_ value: Double) -> Double { left + min(max(value, 0), xMax) / xMax * plotWidth }
        func y(_ share: Double) -> Double { top + (1 - share) * plotHeight }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"\(left)\" y=\"18\" font-size=\"14\">\(set.name): CDF of normalised QoE_lin (policy / optimum)</text>\n"
        for tick in stride(from: 0.0, through: 1.0001, by: 0.2) {
            svg += "<line x1=\"\(x(tick))\" y1=\"\(y(0))\" x2=\"\(x(tick))\" y2=\"\(y(1))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(x(tick))\" y=\"\(y(0) + 16)\" text-anchor=\"middle\">\(String(format: "%.1f", tick))</text>\n"
            svg += "<line x1=\"\(x(0))\" y1=\"\(y(tick))\" x2=\"\(x(xMax))\" y2=\"\(y(tick))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(x(0) - 6)\" y=\"\(y(tick) + 4)\" text-anchor=\"end\">\(String(format: "%.1f", tick))</text>\n"
        }
        svg += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"black\"/>\n"
        svg += "<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 12)\" text-anchor=\"middle\">normalised QoE_lin</text>\n"
        svg += "<text x=\"16\" y=\"\(top + plotHeight / 2)\" transform=\"rotate(-90 16 \(top + plotHeight / 2))\" text-anchor=\"middle\">share of traces</text>\n"
        for (number, policy) in set.policies.enumerated() {
            let values = set.traces.compactMap { $0.normalised(policy, .lin) }.sorted()
            guard !values.isEmpty else { continue }
            let color = colors[number % colors.count]
            var points = "\(x(values[0])),\(y(0))"
            for (rank, value) in values.enumerated() {
                points += " \(x(value)),\(y(Double(rank) / Double(values.count))) \(x(value)),\(y(Double(rank + 1) / Double(values.count)))"
            }
            let width = policy == ABRPolicies.defaultName ? 2.5 : 1.5
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\" points=\"\(points)\"/>\n"
            let legendY = top + 16 + Double(number) * 18
            svg += "<line x1=\"\(left + plotWidth + 10)\" y1=\"\(legendY)\" x2=\"\(left + plotWidth + 34)\" y2=\"\(legendY)\" stroke=\"\(color)\" stroke-width=\"3\"/>"
            svg += "<text x=\"\(left + plotWidth + 40)\" y=\"\(legendY + 4)\">\(policy)</text>\n"
        }
        return svg + "</svg>\n"
    }
}
