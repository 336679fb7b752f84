/// Placeholder; the playlist model lands here.
public enum PlayheadHLSVersion { public static let string = "0.1.0" }
