import Foundation
import OpenExtensionUI
import OpenImageIO
import Testing

/// The UIKit that custom share sheets use beside their views (issue 63): written as their authors write it, each
/// kept as code sets it, headless.
@Suite("What custom sheets set on their views, kept")
@MainActor
struct CustomSheetUIKitTests {
    /// A text view's delegate that records what it was told.
    final class Told: NSObject, UITextViewDelegate {
        var changes = 0
        func textViewDidChange(_ textView: UITextView) { changes += 1 }
    }

    @Test("a text view keeps its font, colour, alignment, scrolling and delegate; its delegate's unwritten methods allow; setting text in code tells no one")
    func textView() {
        let view = UITextView(), told = Told(), font = UIFont.systemFont(ofSize: 15), colour = UIColor.secondaryLabel
        view.font = font
        view.textColor = colour
        view.textAlignment = .center
        view.isScrollEnabled = false
        view.delegate = told
        view.text = "A note"
        #expect(view.font === font && view.textColor === colour && view.textAlignment == .center && !view.isScrollEnabled)
        #expect(view.delegate === told && told.changes == 0)
        #expect(told.textViewShouldBeginEditing(view))
        #expect(told.textView(view, shouldChangeTextIn: NSRange(location: 0, length: 1), replacementText: "B"))
    }

    @Test("margins by leading and trailing edge are the left and right ones; an autoresizing mask and a label's tightening are kept")
    func layoutProperties() {
        let view = UIView(), label = UILabel()
        view.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
        #expect(view.layoutMargins == UIEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        view.layoutMargins = .zero
        #expect(view.directionalLayoutMargins == .zero)
        view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        #expect(view.autoresizingMask.contains(.flexibleWidth) && !view.autoresizingMask.contains(.flexibleTopMargin))
        label.allowsDefaultTighteningForTruncation = true
        #expect(label.allowsDefaultTighteningForTruncation)
    }

    @Test("an animation's completion comes after its changes, finished; with no completion the changes are made at once")
    func animation() async {
        let view = UIView()
        let finished: Bool = await withCheckedContinuation { continuation in
            UIView.animate(withDuration: 0.01, animations: { view.alpha = 0.5 }, completion: { continuation.resume(returning: $0) })
        }
        #expect(finished && view.alpha == 0.5)
        UIView.animate(withDuration: 0.3) { view.alpha = 1 }
        #expect(view.alpha == 1)
    }

    @Test("an image drawn as a template is the same image, its pixels decoded once for both")
    func renderingMode() throws {
        let pixels = try #require(CGContext(data: nil, width: 4, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
                                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)?.makeImage())
        let image = UIImage(cgImage: pixels, scale: 2, orientation: .up)
        let template = image.withRenderingMode(.alwaysTemplate)
        #expect(image.renderingMode == .automatic && template.renderingMode == .alwaysTemplate)
        #expect(template.size == image.size && template.scale == 2)
        #expect(template.withRenderingMode(.alwaysTemplate) === template)
        #expect(template.withRenderingMode(.alwaysOriginal).renderingMode == .alwaysOriginal)
    }

    @Test("a table's editing, a navigation bar's look and a keyboard's frame boxed in a value are kept")
    func tablesBarsAndKeyboards() {
        let table = UITableView(frame: .zero, style: .plain)
        table.setEditing(true, animated: true)
        #expect(table.isEditing)
        let navigation = UINavigationController(rootViewController: UIViewController())
        navigation.navigationBar.prefersLargeTitles = true
        let colour = UIColor.systemBackground
        navigation.navigationBar.barTintColor = colour
        navigation.navigationBar.isTranslucent = false
        #expect(navigation.navigationBar.prefersLargeTitles && navigation.navigationBar.barTintColor === colour && !navigation.navigationBar.isTranslucent)
        let frame = CGRect(x: 0, y: 500, width: 390, height: 344)
        let userInfo: [AnyHashable: Any] = [UIResponder.keyboardFrameEndUserInfoKey: NSValue(cgRect: frame)]
        #expect((userInfo[UIResponder.keyboardFrameEndUserInfoKey] as? NSValue)?.cgRectValue == frame)
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue == CGPoint(x: 1, y: 2))
        #expect(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue == CGSize(width: 3, height: 4))
    }

    /// A transition of sizes, as UIKit would make one: what runs beside it runs at once, then its completion.
    final class Resizing: NSObject, UIViewControllerTransitionCoordinator {
        let isAnimated = true, isCancelled = false, transitionDuration: TimeInterval = 0.3
        let containerView = UIView()
        func animate(alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
                     completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
            animation?(self)
            completion?(self)
            return true
        }
    }

    /// A sheet that lays its card out again beside a rotation, as custom sheets do.
    final class Sheet: UIViewController {
        var sizes: [CGSize] = [], laidOut = 0
        override func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {
            super.viewWillTransition(to: size, with: coordinator)
            sizes.append(size)
            coordinator.animate(alongsideTransition: { _ in self.laidOut += 1 })
            coordinator.animate(alongsideTransition: nil) { context in self.laidOut += context.isCancelled ? 0 : 10 }
        }
    }

    @Test("a controller's size transition reaches its children; what the sheet runs beside it runs, with or without a completion")
    func sizeTransition() {
        let parent = UINavigationController(rootViewController: Sheet())
        let size = CGSize(width: 844, height: 390)
        parent.viewWillTransition(to: size, with: Resizing())
        let sheet = parent.topViewController as? Sheet
        #expect(sheet?.sizes == [size] && sheet?.laidOut == 11)
    }
}

