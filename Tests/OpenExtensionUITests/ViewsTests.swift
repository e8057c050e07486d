import Foundation
import OpenExtensionUI
import OpenImageIO
import Testing

/// The views extensions build in code: a hierarchy, constraints activated as UIKit activates them (held by the
/// closest common ancestor), labels, image views and fonts, all headless.
@Suite("Views built in code")
@MainActor
struct ViewsTests {
    @Test("subviews in order, moved between superviews, brought forward and sent back; tags, descendants, bounds and centre")
    func hierarchy() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        let card = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 40))
        let title = UILabel(), icon = UIImageView(image: nil)
        title.tag = 7
        root.addSubview(card)
        card.addSubview(title)
        card.insertSubview(icon, at: 0)
        #expect(card.subviews == [icon, title] && icon.superview === card && card.superview === root)
        card.bringSubviewToFront(icon)
        #expect(card.subviews == [title, icon])
        card.sendSubviewToBack(icon)
        #expect(card.subviews == [icon, title])
        #expect(root.viewWithTag(7) === title && root.viewWithTag(8) == nil)
        #expect(title.isDescendant(of: root) && !root.isDescendant(of: title))
        root.addSubview(title)
        #expect(card.subviews == [icon] && root.subviews == [card, title] && title.superview === root)
        #expect(card.bounds == CGRect(x: 0, y: 0, width: 100, height: 40) && card.center == CGPoint(x: 60, y: 40))
        card.center = CGPoint(x: 200, y: 100)
        #expect(card.frame.origin == CGPoint(x: 150, y: 80))
        title.removeFromSuperview()
        #expect(title.superview == nil && root.subviews == [card])
    }

    @Test("anchors make constraints with their attributes, relation, multiplier and constant; activated, each is held by the items' closest common ancestor")
    func constraints() throws {
        let root = UIView(), card = UIView(), title = UILabel(), icon = UIImageView(image: nil)
        root.addSubview(card)
        card.addSubview(title)
        card.addSubview(icon)
        title.translatesAutoresizingMaskIntoConstraints = false
        let leading = title.leadingAnchor.constraint(equalTo: icon.trailingAnchor, constant: 8)
        let top = title.topAnchor.constraint(greaterThanOrEqualTo: root.safeAreaLayoutGuide.topAnchor)
        let width = icon.widthAnchor.constraint(equalToConstant: 44)
        let half = card.heightAnchor.constraint(equalTo: root.heightAnchor, multiplier: 0.5)
        #expect(leading.firstItem === title && leading.firstAttribute == .leading && leading.secondItem === icon && leading.secondAttribute == .trailing)
        #expect(leading.relation == .equal && leading.constant == 8 && leading.multiplier == 1 && !leading.isActive)
        #expect(top.relation == .greaterThanOrEqual && top.secondItem === root.safeAreaLayoutGuide)
        #expect(width.secondItem == nil && width.secondAttribute == .notAnAttribute && width.constant == 44)
        #expect(half.multiplier == 0.5)
        NSLayoutConstraint.activate([leading, top, width, half])
        #expect(card.constraints == [leading] && root.constraints == [top, half] && icon.constraints == [width])
        #expect([leading, top, width, half].allSatisfy { $0.isActive })
        width.priority = .defaultHigh + 1
        #expect(width.priority.rawValue == 751 && UILayoutPriority.required > .defaultHigh)
        // Taken from the hierarchy, a view takes the constraints naming it from its former ancestors.
        icon.removeFromSuperview()
        #expect(card.constraints.isEmpty && !leading.isActive)
        #expect(icon.constraints == [width], "a constraint of the view's own stays with it")
        NSLayoutConstraint.deactivate([top])
        #expect(root.constraints == [half])
        let old = NSLayoutConstraint(item: title, attribute: .width, relatedBy: .lessThanOrEqual, toItem: nil, attribute: .notAnAttribute,
                                     multiplier: 1, constant: 200)
        title.addConstraint(old)
        #expect(title.constraints == [old] && old.isActive)
        title.removeConstraint(old)
        #expect(title.constraints.isEmpty)
    }

    @Test("a child pinned to its parent's four edges, as code-built and SwiftUI-hosting share sheets pin theirs: held by the parent")
    func pinnedToEdges() {
        let controller = UIViewController()
        let child = UIView()
        controller.view.addSubview(child)
        child.translatesAutoresizingMaskIntoConstraints = false
        let edges = [child.topAnchor.constraint(equalTo: controller.view.topAnchor), child.bottomAnchor.constraint(equalTo: controller.view.bottomAnchor),
                     child.leadingAnchor.constraint(equalTo: controller.view.leadingAnchor),
                     child.trailingAnchor.constraint(equalTo: controller.view.trailingAnchor)]
        NSLayoutConstraint.activate(edges)
        #expect(controller.view.constraints == edges)
        controller.view.layoutIfNeeded()
    }

    @Test("a label's text and attributed text are one, with UIKit's defaults; an image view is its image's size; fonts by size, weight and text style")
    func labelsImagesFonts() throws {
        let label = UILabel()
        #expect(label.font.pointSize == 17 && label.numberOfLines == 1 && label.textAlignment == .natural && label.lineBreakMode == .byTruncatingTail)
        label.text = "Saved to Reading List"
        #expect(label.attributedText?.string == "Saved to Reading List")
        label.attributedText = NSAttributedString(string: "3 items")
        #expect(label.text == "3 items")
        label.text = nil
        #expect(label.attributedText == nil)
        let image = try #require(UIImage(data: try Data(contentsOf: ViewsTests.sunset)))
        let view = UIImageView(image: image)
        #expect(view.frame.size == image.size && view.image === image)
        view.contentMode = .scaleAspectFill
        #expect(view.contentMode.rawValue == 2)
        #expect(UIFont.preferredFont(forTextStyle: .headline).pointSize == 17 && UIFont.preferredFont(forTextStyle: .caption2).pointSize == 11)
        #expect(UIFont.boldSystemFont(ofSize: 20).withSize(12).pointSize == 12)
        #expect(UIFont(name: "Menlo", size: 13)?.fontName == "Menlo" && UIFont(name: "", size: 13) == nil)
    }

    @Test("a button's titles per state, and its actions run in order for the events they were added for; a primary action's title is the button's")
    func buttonsAndActions() {
        var ran: [String] = []
        let button = UIButton(type: .system)
        button.setTitle("Save", for: .normal)
        button.setTitle("Saved", for: .selected)
        #expect(button.currentTitle == "Save" && button.titleLabel?.text == "Save" && button.title(for: .highlighted) == "Save")
        button.isSelected = true
        #expect(button.currentTitle == "Saved" && button.state == .selected)
        let save = UIAction(title: "Save") { action in ran.append("save from \((action.sender as? UIButton)?.currentTitle ?? "nobody")") }
        button.addAction(save, for: .touchUpInside)
        button.addAction(UIAction { _ in ran.append("changed") }, for: .valueChanged)
        button.sendActions(for: .touchUpInside)
        button.sendActions(for: [.valueChanged, .touchUpInside])
        #expect(ran == ["save from Saved", "save from Saved", "changed"])
        button.removeAction(save, for: .touchUpInside)
        ran = []
        button.sendActions(for: .touchUpInside)
        #expect(ran.isEmpty && save.sender == nil)
        let post = UIButton(primaryAction: UIAction(title: "Post") { _ in ran.append("post") })
        #expect(post.currentTitle == "Post" && post.buttonType == .system)
        post.sendActions(for: .primaryActionTriggered)
        #expect(ran == ["post"])
    }

    @Test("a stack arranges its views as subviews, in order; one removed from the stack stays a subview, one taken from the stack leaves both; a spinner hides when stopped")
    func stacksAndSpinners() {
        let title = UILabel(), detail = UILabel(), icon = UIImageView(image: nil)
        let stack = UIStackView(arrangedSubviews: [title, detail])
        stack.axis = .vertical
        stack.spacing = 8
        stack.insertArrangedSubview(icon, at: 0)
        #expect(stack.arrangedSubviews == [icon, title, detail] && stack.subviews == [title, detail, icon])
        stack.removeArrangedSubview(detail)
        #expect(stack.arrangedSubviews == [icon, title] && detail.superview === stack)
        title.removeFromSuperview()
        #expect(stack.arrangedSubviews == [icon] && !stack.subviews.contains(title))
        stack.setCustomSpacing(20, after: icon)
        #expect(stack.customSpacing(after: icon) == 20 && stack.customSpacing(after: detail) == UIStackView.spacingUseDefault)
        let spinner = UIActivityIndicatorView(style: .large)
        #expect(spinner.isHidden && !spinner.isAnimating)
        spinner.startAnimating()
        #expect(!spinner.isHidden && spinner.isAnimating)
        spinner.stopAnimating()
        #expect(spinner.isHidden)
        spinner.hidesWhenStopped = false
        spinner.isHidden = false
        spinner.startAnimating()
        spinner.stopAnimating()
        #expect(!spinner.isHidden)
    }

    static let sunset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/files/sunset.jpg")
}

@Suite("Layers and keyboard names")
@MainActor
struct LayerTests {
    @Test("a view's layer keeps its corners, border and shadow, with Core Animation's defaults")
    func layer() {
        let card = UIView()
        #expect(card.layer === card.layer && card.layer.cornerRadius == 0 && card.layer.borderColor?.components == [0, 1])
        #expect(card.layer.shadowOffset == CGSize(width: 0, height: -3) && card.layer.shadowOpacity == 0)
        card.layer.cornerRadius = 12
        card.layer.masksToBounds = true
        card.layer.borderColor = UIColor.systemBlue.cgColor
        #expect(card.layer.cornerRadius == 12 && card.layer.masksToBounds && card.layer.borderColor?.components == UIColor.systemBlue.cgColor.components)
    }

    @Test("the keyboard's notification names and keys are UIKit's strings")
    func keyboardNames() {
        #expect(UIResponder.keyboardWillShowNotification.rawValue == "UIKeyboardWillShowNotification")
        #expect(UIResponder.keyboardFrameEndUserInfoKey == "UIKeyboardFrameEndUserInfoKey")
    }
}

@Suite("Segmented controls")
@MainActor
struct SegmentedControlTests {
    @Test("segments from titles, images and actions; inserting and removing keep the selection on its segment")
    func segments() {
        let control = UISegmentedControl(items: ["Private", UIGraphicsImageRenderer(size: CGSize(width: 2, height: 2)).image { _ in }, UIAction(title: "Team") { _ in }, 42])
        #expect(control.numberOfSegments == 3 && control.selectedSegmentIndex == UISegmentedControl.noSegment)
        #expect(control.titleForSegment(at: 0) == "Private" && control.imageForSegment(at: 1) != nil && control.actionForSegment(at: 2)?.title == "Team")
        control.selectedSegmentIndex = 1
        control.insertSegment(withTitle: "Public", at: 0, animated: false)
        #expect(control.selectedSegmentIndex == 2 && control.titleForSegment(at: 0) == "Public")
        control.removeSegment(at: 2, animated: false)
        #expect(control.selectedSegmentIndex == UISegmentedControl.noSegment && control.numberOfSegments == 3)
        control.setEnabled(false, forSegmentAt: 1)
        #expect(!control.isEnabledForSegment(at: 1) && control.isEnabledForSegment(at: 0) && !control.isEnabledForSegment(at: 9))
        let fromActions = UISegmentedControl(frame: CGRect(x: 0, y: 0, width: 200, height: 32), actions: [UIAction(title: "A") { _ in }])
        #expect(fromActions.numberOfSegments == 1 && fromActions.frame.width == 200)
    }
}

@Suite("Traits and dynamic colours")
@MainActor
struct TraitTests {
    /// A view controller that adapts as extension code does: by its traits, and with a colour for each style.
    final class AdaptiveSheet: UIViewController {
        var columns = 0
        let accent = UIColor { traits in traits.userInterfaceStyle == .dark ? .white : .black }

        override func viewDidLoad() {
            super.viewDidLoad()
            columns = traitCollection.horizontalSizeClass == .regular ? 3 : 1
            view.backgroundColor = accent
        }
    }

    @Test("views and view controllers have the device's traits: a phone in portrait at the screen's scale, light mode")
    func deviceTraits() {
        let sheet = AdaptiveSheet()
        sheet.loadViewIfNeeded()
        #expect(sheet.columns == 1)
        let traits = sheet.view.traitCollection
        #expect(traits.userInterfaceIdiom == .phone && traits.verticalSizeClass == .regular && traits.userInterfaceStyle == .light)
        #expect(traits.displayScale == UIScreen.main.scale && traits.preferredContentSizeCategory == .large)
        #expect(!traits.preferredContentSizeCategory.isAccessibilityCategory && UIContentSizeCategory.accessibilityLarge.isAccessibilityCategory)
        #expect(traits.containsTraits(in: UITraitCollection(horizontalSizeClass: .compact)))
        #expect(!traits.containsTraits(in: UITraitCollection(userInterfaceStyle: .dark)))
    }

    @Test("a dynamic colour is its light appearance here, and its provider answers for other traits")
    func dynamicColour() {
        let sheet = AdaptiveSheet()
        #expect(sheet.accent.cgColor.components == UIColor.black.cgColor.components)
        let dark = UITraitCollection(userInterfaceStyle: .dark)
        #expect(sheet.accent.resolvedColor(with: dark).cgColor.components == UIColor.white.cgColor.components)
        #expect(UIColor.red.resolvedColor(with: dark).cgColor.components == UIColor.red.cgColor.components)
        #expect(dark.hasDifferentColorAppearance(comparedTo: sheet.traitCollection))
        let merged = UITraitCollection(traitsFrom: [UITraitCollection(userInterfaceStyle: .dark), UITraitCollection(displayScale: 2)])
        #expect(merged.userInterfaceStyle == .dark && merged.displayScale == 2 && merged.horizontalSizeClass == .unspecified)
    }
}

@Suite("Progress, switches and effects")
@MainActor
struct ProgressAndSwitchTests {
    @Test("a progress view clamps what it is set to, and follows the Progress it observes")
    func progressView() {
        let bar = UIProgressView(progressViewStyle: .bar)
        bar.setProgress(1.7, animated: true)
        #expect(bar.progress == 1 && bar.progressViewStyle == .bar)
        bar.progress = -1
        #expect(bar.progress == 0)
        let upload = Progress(totalUnitCount: 4)
        bar.observedProgress = upload
        upload.completedUnitCount = 3
        #expect(bar.progress == 0.75)
        bar.observedProgress = nil
        #expect(bar.progress == 0)
    }

    @Test("a switch keeps its state; setting it in code sends no value-changed action, a person's toggle does")
    func switches() {
        let toggle = UISwitch(frame: CGRect(x: 10, y: 10, width: 200, height: 100))
        var changes = 0
        toggle.addAction(UIAction { _ in changes += 1 }, for: .valueChanged)
        toggle.setOn(true, animated: false)
        #expect(toggle.isOn && changes == 0 && toggle.frame == CGRect(x: 10, y: 10, width: 51, height: 31))
        toggle.isOn.toggle()
        toggle.sendActions(for: .valueChanged)
        #expect(!toggle.isOn && changes == 1)
    }

    @Test("a visual-effect view keeps its effect and holds its content in a content view that fills it")
    func effectView() {
        let blur = UIVisualEffectView(effect: UIBlurEffect(style: .systemMaterial))
        blur.frame = CGRect(x: 0, y: 0, width: 300, height: 120)
        let label = UILabel()
        blur.contentView.addSubview(label)
        blur.layoutIfNeeded()
        #expect(blur.contentView.superview === blur && blur.contentView.frame == blur.bounds && label.superview === blur.contentView)
        #expect(blur.effect is UIBlurEffect)
    }
}

/// A card view written as UIKit requires: its own initializer, and `init?(coder:)` passed up, as views that
/// may also come from a storyboard write it.
final class CardView: UIView {
    let title = UILabel()

    override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(title)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        addSubview(title)
    }
}

@Suite("Views decoded from storyboards")
@MainActor
struct CoderTests {
    @Test("a view's init?(coder:) can be passed up as UIKit requires, and makes no view: there are no storyboards here")
    func coderFails() {
        #expect(CardView(frame: .zero).subviews.count == 1)
        #expect(CardView(coder: NSCoder()) == nil)
        #expect(UIButton(coder: NSCoder()) == nil)
    }
}
