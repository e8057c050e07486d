// A share extension on the system's compose sheet that resizes the photo it is given to 2,000 points for
// upload, through UIImage and a renderer: the photo is decoded whole, and drawn at the screen's scale
// (PhotoResizing). Post saves the JPEG it would upload into the app group's Uploads folder, then completes.
import PhotoResizing
import SharingShim

final class ShareViewController: PhotoUploadViewController {
    nonisolated override func resized(photoAt url: URL) -> Data? {
        PhotoResizing.naivelyResized(photoAt: url, longestSide: 2000)
    }
}
