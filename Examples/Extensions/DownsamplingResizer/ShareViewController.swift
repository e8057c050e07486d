// A share extension on the system's compose sheet that resizes the photo it is given to 2,000 points for
// upload, through ImageIO's thumbnail: the photo is never decoded whole (PhotoResizing). Post saves the JPEG it
// would upload into the app group's Uploads folder, then completes.
import PhotoResizing
import SharingShim

final class ShareViewController: PhotoUploadViewController {
    nonisolated override func resized(photoAt url: URL) -> Data? {
        PhotoResizing.downsampled(photoAt: url, longestSide: 2000)
    }
}
