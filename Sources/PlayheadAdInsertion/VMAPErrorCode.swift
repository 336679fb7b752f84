import PlayheadAds
import PlayheadCore

/// The error codes of IAB VMAP 1.0 (section 2.5) that a VMAP break's `error` tracking URLs receive as
/// `[ERRORCODE]`, and how a failed break's notification maps onto them.
public enum VMAPErrorCode {
    /// 1003: the break's type is not supported (a non-linear break).
    public static let breakTypeNotSupported = 1003
    /// 1004: a general error in the ad response (no ad left to play, for example).
    public static let generalAdResponseError = 1004
    /// 1005: the ad source's template type is not supported (custom ad data).
    public static let templateTypeNotSupported = 1005
    /// 1006: the ad response could not be extracted or parsed.
    public static let adResponseUnreadable = 1006
    /// 1007: the ad response was not retrieved in time.
    public static let adResponseTimeout = 1007
    /// 1008: the ad response could not be retrieved (an HTTP error status, a transport error).
    public static let adResponseRetrievalError = 1008

    /// The VMAP code for a break from `source` whose resolution ended with `failure`.
    public static func forFailure(_ failure: PlayerNotification, source: VMAPAdSource) -> Int {
        if case .customAdData = source.content { return templateTypeNotSupported }
        switch failure.code {
        case .adTimeout: return adResponseTimeout
        case .adUnreachable: return adResponseRetrievalError
        default: break
        }
        switch failure[.vastErrorCode].flatMap(Int.init) {
        case let code? where (100..<200).contains(code): return adResponseUnreadable
        case 301?: return adResponseRetrievalError
        default: return generalAdResponseError
        }
    }
}
