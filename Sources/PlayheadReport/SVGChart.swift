import Foundation

/// One inline SVG chart over session time: lines, step lines and points, with shaded bands (rebuffers,
/// ad breaks) and vertical markers (ad boundaries), axes with round ticks, and a legend.
struct SVGChart {
    /// Default chart width in CSS pixels.
    static let defaultWidthPixels = 960.0
    /// Default chart height in CSS pixels.
    static let defaultHeightPixels = 216.0
    /// Room for the axis labels, pixels.
    static let marginLeftPixels = 70.0, marginRightPixels = 16.0, marginTopPixels = 40.0, marginBottomPixels = 28.0

    /// How a series is drawn.
    enum Style { case line, step, points }

    /// A named series of (session seconds, value) points.
    struct Series {
        var name: String
        var color: String
        var style: Style
        var points: [(x: Double, y: Double)]
    }

    /// A shaded time span.
    struct Band {
        var name: String
        var color: String
        var start: Double
        var end: Double
    }

    /// A vertical marker at a time.
    struct Marker {
        var name: String
        var color: String
        var x: Double
    }

    var title: String
    var unit: String
    var xRange: ClosedRange<Double>
    var series: [Series] = []
    var bands: [Band] = []
    var markers: [Marker] = []
    var width = defaultWidthPixels
    var height = defaultHeightPixels
    /// Formats a y value for the axis (for example bits per second as kbit/s).
    var formatY: (Double) -> String = { SVGChart.compact($0) }

    /// The `<svg>` element.
    func render() -> String {
        let plotW = width - Self.marginLeftPixels - Self.marginRightPixels
        let plotH = height - Self.marginTopPixels - Self.marginBottomPixels
        let yMax = niceCeiling(series.flatMap { $0.points.map(\.y) }.max() ?? 1)
        let xSpan = max(xRange.upperBound - xRange.lowerBound, 1e-9)
        func px(_ x: Double) -> Double { Self.marginLeftPixels + (x - xRange.lowerBound) / xSpan * plotW }
        func py(_ y: Double) -> Double { Self.marginTopPixels + plotH - min(max(y / yMax, 0), 1) * plotH }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" aria-label=\"\(HTML.escape(title))\">"
        out += "<text x=\"\(f(Self.marginLeftPixels))\" y=\"16\" class=\"title\">\(HTML.escape(title)) (\(HTML.escape(unit)))</text>"
        for band in bands {
            let x0 = px(max(band.start, xRange.lowerBound)), x1 = px(min(band.end, xRange.upperBound))
            out += "<rect x=\"\(f(x0))\" y=\"\(f(Self.marginTopPixels))\" width=\"\(f(max(x1 - x0, 1.5)))\" height=\"\(f(plotH))\" fill=\"\(band.color)\" fill-opacity=\"0.25\"><title>\(HTML.escape(band.name)) \(f(band.start))–\(f(band.end)) s</title></rect>"
        }
        for tick in ticks(0, yMax, count: 4) {
            let y = py(tick)
            out += "<line x1=\"\(f(Self.marginLeftPixels))\" x2=\"\(f(Self.marginLeftPixels + plotW))\" y1=\"\(f(y))\" y2=\"\(f(y))\" class=\"grid\"/>"
            out += "<text x=\"\(f(Self.marginLeftPixels - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\" class=\"tick\">\(HTML.escape(formatY(tick)))</text>"
        }
        for tick in ticks(xRange.lowerBound, xRange.upperBound, count: 8) {
            let x = px(tick)
            out += "<line x1=\"\(f(x))\" x2=\"\(f(x))\" y1=\"\(f(Self.marginTopPixels + plotH))\" y2=\"\(f(Self.marginTopPixels + plotH + 4))\" class=\"axis\"/>"
            out += "<text x=\"\(f(x))\" y=\"\(f(height - 8))\" text-anchor=\"middle\" class=\"tick\">\(Self.compact(tick)) s</text>"
        }
        out += "<rect x=\"\(f(Self.marginLeftPixels))\" y=\"\(f(Self.marginTopPixels))\" width=\"\(f(plotW))\" height=\"\(f(plotH))\" class=\"frame\"/>"
        for marker in markers {
            let x = px(marker.x)
            out += "<line x1=\"\(f(x))\" x2=\"\(f(x))\" y1=\"\(f(Self.marginTopPixels))\" y2=\"\(f(Self.marginTopPixels + plotH))\" stroke=\"\(marker.color)\" stroke-dasharray=\"4 3\"><title>\(HTML.escape(marker.name)) at \(f(marker.x)) s</title></line>"
        }
        for s in series where !s.points.isEmpty {
            switch s.style {
            case .line, .step:
                var d = ""
                for (index, point) in s.points.enumerated() {
                    if index == 0 { d += "M\(f(px(point.x))) \(f(py(point.y)))" } else {
                        if s.style == .step { d += " H\(f(px(point.x)))" }
                        d += " L\(f(px(point.x))) \(f(py(point.y)))"
                    }
                }
                if s.style == .step, let last = s.points.last { d += " H\(f(px(max(last.x, xRange.upperBound))))" }
                out += "<path d=\"\(d)\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"1.6\"/>"
            case .points:
                for point in s.points {
                    out += "<circle cx=\"\(f(px(point.x)))\" cy=\"\(f(py(point.y)))\" r=\"2.2\" fill=\"\(s.color)\"/>"
                }
            }
        }
        out += legend(y: 32)
        return out + "</svg>"
    }

    /// The legend, right-aligned on the title line.
    private func legend(y: Double) -> String {
        var entries = series.map { ($0.name, $0.color) }
        var seen = Set<String>()
        for band in bands where seen.insert(band.name).inserted { entries.append((band.name, band.color)) }
        for marker in markers where seen.insert(marker.name).inserted { entries.append((marker.name, marker.color)) }
        var x = width - Self.marginRightPixels
        var out = ""
        for (name, color) in entries.reversed() {
            let textWidth = Double(name.count) * 6.5
            x -= textWidth + 18
            out += "<rect x=\"\(f(x))\" y=\"\(f(y - 9))\" width=\"10\" height=\"10\" fill=\"\(color)\"/>"
            out += "<text x=\"\(f(x + 14))\" y=\"\(f(y))\" class=\"legend\">\(HTML.escape(name))</text>"
        }
        return out
    }

    /// A round number at or above `value` (1, 2, 2.5 or 5 times a power of ten).
    func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 2, 2.5, 5, 10] where step * power >= value { return step * power }
        return 10 * power
    }

    /// About `count` round tick values from `low` to `high`.
    func ticks(_ low: Double, _ high: Double, count: Int) -> [Double] {
        guard high > low else { return [low] }
        let step = niceCeiling((high - low) / Double(count))
        var values: [Double] = []
        var value = (low / step).rounded(.up) * step
        while value <= high + step * 1e-9 {
            values.append(value)
            value += step
        }
        return values
    }

    /// A number with at most two decimals, for SVG coordinates.
    func f(_ value: Double) -> String { String(format: "%.2f", value.isFinite ? value : 0) }

    /// A short label: 1.5k, 2M, 0.25.
    static func compact(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1_000_000 { return trim(value / 1_000_000) + "M" }
        if magnitude >= 1_000 { return trim(value / 1_000) + "k" }
        return trim(value)
    }

    static func trim(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// HTML text helpers.
enum HTML {
    /// Escapes `&`, `<`, `>`, `"` and `'`.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
