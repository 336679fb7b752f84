import CCurl
/// The libcurl edge.
public enum PlayheadNetInfo {
    /// The libcurl version string this build links against.
    public static var curlVersion: String { String(cString: curl_version()) }
}
