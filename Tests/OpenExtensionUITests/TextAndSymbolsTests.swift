import Foundation
import OpenExtensionUI
import OpenImageIO
import Testing

/// What public sheets built in code call beside their views: attributed text, measuring text, symbols, colours
/// with alpha, corner masks, margins and bar items set with an animation flag.
@Suite("Text, symbols and the smaller parts of sheets built in code")
@MainActor
struct TextAndSymbolsTests {
    @Test("UIKit's attribute keys have UIKit's raw values, and an attributed label keeps them")
    func attributeKeys() {
        #expect(NSAttributedString.Key.font.rawValue == "NSFont" && NSAttributedString.Key.foregroundColor.rawValue == "NSColor")
        #expect(NSAttributedString.Key.kern.rawValue == "NSKern" && NSAttributedString.Key.backgroundColor.rawValue == "NSBackgroundColor")
        #expect(NSAttributedString.Key.link.rawValue == "NSLink" && NSAttributedString.Key.underlineStyle.rawValue == "NSUnderline")
        let label = UILabel()
        let font = UIFont.monospacedSystemFont(ofSize: 12, weight: .semibold)
        label.attributedText = NSAttributedString(string: "FERN", attributes: [.kern: 2.5, .font: font, .foregroundColor: UIColor.secondaryLabel])
        let attributes = label.attributedText?.attributes(at: 0, effectiveRange: nil)
        #expect(attributes?[.kern] as? Double == 2.5 && (attributes?[.font] as? UIFont) === font)
        #expect(font.pointSize == 12 && font.familyName != UIFont.systemFont(ofSize: 12).familyName)
    }

    @Test("text is measured nominally: it grows with its characters, its lines, its font and its kerning; drawing it draws nothing")
    func measuring() {
        let body: [NSAttributedString.Key: Any] = [.font: UIFont.systemFont(ofSize: 18, weight: .semibold)]
        let short = "swift.org".size(withAttributes: body), long = "www.swift.org/blog".size(withAttributes: body)
        #expect(short.width == 81 && short.height == (18 * 1.2).rounded(.up))
        #expect(long.width > short.width && long.height == short.height)
        #expect("a\nb".size(withAttributes: body).height == (2 * 18 * 1.2).rounded(.up))
        // Without a font, 12-point text, as UIKit's default.
        #expect("abcd".size(withAttributes: nil) == CGSize(width: 24, height: (12 * 1.2).rounded(.up)))
        #expect(("abcd" as NSString).size(withAttributes: [.kern: 1.0]).width == 28)
        #expect("abcd".size(withAttributes: [.font: UIFont.monospacedSystemFont(ofSize: 10, weight: .regular)]).width == 24)
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 40, height: 20), format: {
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            return format
        }())
        let image = renderer.image { context in
            UIColor.systemBlue.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 40, height: 20))
            "text".draw(in: CGRect(x: 0, y: 0, width: 40, height: 20), withAttributes: body)
            "text".draw(at: .zero, withAttributes: nil)
        }
        #expect(image.size == CGSize(width: 40, height: 20))
    }

    @Test("a symbol's image is sized by its configuration at the screen's scale, and says it is a symbol")
    func symbols() throws {
        let plain = try #require(UIImage(systemName: "checkmark"))
        #expect(plain.isSymbolImage && !UIImage(cgImage: plain.cgImage!).isSymbolImage)
        #expect(abs(plain.size.width - 17 * 1.2) < 0.5 && plain.size.width == plain.size.height)
        let bold = try #require(UIImage(systemName: "checkmark", withConfiguration: UIImage.SymbolConfiguration(pointSize: 30, weight: .bold)))
        #expect(abs(bold.size.width - 36) < 0.5 && bold.scale == UIScreen.main.scale)
        let large = try #require(UIImage(systemName: "tray.fill", withConfiguration: UIImage.SymbolConfiguration(scale: .large)))
        #expect(large.size.width > plain.size.width)
        let caption = try #require(UIImage(systemName: "tray", withConfiguration: UIImage.SymbolConfiguration(textStyle: .caption2)))
        #expect(abs(caption.size.width - 11 * 1.2) < 0.5)
        #expect(UIImage(systemName: "") == nil)
        #expect(UIImage.SymbolWeight.bold.rawValue == 7 && UIImage.SymbolScale.default.rawValue == -1)
    }

    @Test("a colour with another alpha keeps its components; a dynamic one stays dynamic")
    func alpha() {
        let dimmed = UIColor.black.withAlphaComponent(0.35)
        #expect(dimmed.cgColor.components == [0, 0.35])
        let red = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1).withAlphaComponent(2)
        #expect(red.cgColor.components == [1, 0.5, 0, 1])
        let dynamic = UIColor(dynamicProvider: { _ in .white }).withAlphaComponent(0.5)
        #expect(dynamic.resolvedColor(with: UITraitCollection.current).cgColor.components == [1, 0.5])
    }

    @Test("corners, margins, insets, indentation and bar items set with an animation flag are kept as UIKit keeps them")
    func smallerParts() {
        let card = UIView()
        #expect(card.layer.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner])
        card.layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        #expect(card.layer.maskedCorners.rawValue == 3)
        #expect(card.layoutMargins == UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8) && card.safeAreaInsets == .zero)
        card.layoutMargins.left = 64
        #expect(card.layoutMargins.left == 64)
        let cell = UITableViewCell(style: .subtitle, reuseIdentifier: nil)
        #expect(cell.indentationLevel == 0 && cell.indentationWidth == 10)
        let table = UITableView(frame: .zero, style: .insetGrouped)
        table.sectionHeaderTopPadding = 8
        #expect(table.sectionHeaderTopPadding == 8)
        let item = UINavigationItem(title: "My app")
        let done = UIBarButtonItem(systemItem: .done)
        item.setRightBarButton(done, animated: false)
        item.setLeftBarButtonItems([UIBarButtonItem(systemItem: .cancel)], animated: true)
        #expect(item.rightBarButtonItem === done && item.leftBarButtonItems?.count == 1)
        item.setRightBarButton(nil, animated: true)
        #expect(item.rightBarButtonItems == nil)
    }

    @Test("reloading sections asks the data source again, as reloading the table does")
    func reloadSections() async {
        final class Rows: NSObject, UITableViewDataSource {
            var count = 1
            var asked = 0
            func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
                asked += 1
                return count
            }
            func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                UITableViewCell(style: .default, reuseIdentifier: nil)
            }
        }
        let rows = Rows()
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 390, height: 400), style: .plain)
        table.dataSource = rows
        #expect(table.numberOfRows(inSection: 0) == 1)
        rows.count = 4
        table.reloadSections(IndexSet(integer: 0), with: .fade)
        #expect(table.numberOfRows(inSection: 0) == 4)
    }
}

@Suite("The device played")
@MainActor
struct DeviceTests {
    @Test("an iPhone held upright, named as iOS 16 names it to apps, running the played class's iOS (26.0 when none is passed)")
    func device() {
        let device = UIDevice.current
        #expect(device.name == "iPhone" && device.model == "iPhone" && device.localizedModel == "iPhone" && device.systemName == "iOS")
        #expect(ProcessInfo.processInfo.environment["OPENSHARING_SYSTEM_VERSION"] != nil || device.systemVersion == "26.0")
        #expect(device.userInterfaceIdiom == .phone && device.orientation == .portrait && device.orientation.isPortrait && !device.orientation.isFlat)
        #expect(UIDeviceOrientation.landscapeLeft.isLandscape && UIDeviceOrientation.faceUp.rawValue == 5)
        #expect(device.batteryLevel == -1 && device.batteryState == .unknown)
        device.isBatteryMonitoringEnabled = true
        defer { device.isBatteryMonitoringEnabled = false }
        #expect(device.batteryLevel == 1 && device.batteryState == .full)
    }

    @Test("a vendor's identifier is the same for its app and every extension of its, and another vendor's differs")
    func vendor() {
        let app = UIDevice.vendorIdentifier("com.example")
        #expect(app == UIDevice.vendorIdentifier("com.example") && app != UIDevice.vendorIdentifier("org.example"))
        // A name-based UUID's version and variant.
        #expect(app.uuidString.dropFirst(14).first == "5" && "89AB".contains(app.uuidString.dropFirst(19).first!))
    }
}
