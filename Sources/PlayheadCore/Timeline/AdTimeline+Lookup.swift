extension AdTimeline {
    /// The index of the break with id `breakId`, if any.
    public func breakIndex(id breakId: String) -> Int? { breaks.firstIndex { $0.id == breakId } }

    /// The ad `adId` of break `breakId`. The indexes, when given, are tried first and used only when
    /// the ids there agree; otherwise the ids are searched.
    ///
    /// - Parameters:
    ///   - breakId: The break's id.
    ///   - adId: The ad's id.
    ///   - breakIndex: Where the break is believed to be.
    ///   - adIndex: Where the ad is believed to be in its break.
    public func ad(breakId: String, adId: String, breakIndex: Int? = nil, adIndex: Int? = nil) -> TimelineAd? {
        if let breakIndex, let adIndex, breaks.indices.contains(breakIndex), breaks[breakIndex].id == breakId,
           breaks[breakIndex].ads.indices.contains(adIndex), breaks[breakIndex].ads[adIndex].id == adId {
            return breaks[breakIndex].ads[adIndex]
        }
        return breaks.first { $0.id == breakId }?.ads.first { $0.id == adId }
    }

    /// The ad an ad event is about (its companions, tracking and click URLs).
    public func ad(for info: AdEventInfo) -> TimelineAd? {
        ad(breakId: info.breakId, adId: info.adId, breakIndex: info.breakIndex, adIndex: info.adIndex)
    }

    /// Virtual start of ad `adIndex` of break `breakIndex`, seconds.
    public func virtualStart(ofBreak breakIndex: Int, ad adIndex: Int) -> Double {
        virtualStart(ofBreak: breakIndex) + breaks[breakIndex].ads[..<adIndex].reduce(0) { $0 + $1.durationSeconds }
    }

    /// Virtual end of break `index` (where content resumes), seconds.
    public func virtualEnd(ofBreak index: Int) -> Double { virtualStart(ofBreak: index) + breaks[index].durationSeconds }
}
