import PlayheadMedia
import PlayheadNet
print("playhead: \(PlayheadMediaInfo.libavformatVersion) / \(PlayheadNetInfo.curlVersion)")
