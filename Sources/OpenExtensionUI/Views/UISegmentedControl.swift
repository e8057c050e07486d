public import Foundation
public import OpenImageIO

/// A row of segments, each a title, an image or an action: which are there, which is enabled and which is selected,
/// kept. The scripted user chooses no segment: a control's selection is what code sets.
///
/// Stands in for UIKit's `UISegmentedControl`.
@preconcurrency @MainActor
open class UISegmentedControl: UIControl {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// The selected index when none is. Stands in for `UISegmentedControl.noSegment`.
    public static let noSegment = -1

    private struct Segment {
        var title: String?
        var image: UIImage?
        var action: UIAction?
        var isEnabled = true
    }

    private var segments: [Segment] = []

    /// Which segment is selected, or `noSegment`; setting it in code sends no events, as in UIKit. Stands in for
    /// `UISegmentedControl.selectedSegmentIndex`.
    open var selectedSegmentIndex = UISegmentedControl.noSegment
    /// Stands in for `UISegmentedControl.isMomentary`.
    open var isMomentary = false
    /// Stands in for `UISegmentedControl.selectedSegmentTintColor`.
    open var selectedSegmentTintColor: UIColor?

    /// Segments from titles (strings), images or actions, in order; other items are left out. Stands in for
    /// `UISegmentedControl.init(items:)`.
    public init(items: [Any]?) {
        super.init(frame: .zero)
        segments = (items ?? []).compactMap { item in
            switch item {
            case let title as String: Segment(title: title)
            case let image as UIImage: Segment(image: image)
            case let action as UIAction: Segment(title: action.title, image: action.image, action: action)
            default: nil
            }
        }
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Stands in for `UISegmentedControl.init(frame:actions:)`.
    public convenience init(frame: CGRect, actions: [UIAction]) {
        self.init(items: actions)
        self.frame = frame
    }

    /// Stands in for `UISegmentedControl.numberOfSegments`.
    open var numberOfSegments: Int { segments.count }

    /// Stands in for `UISegmentedControl.insertSegment(withTitle:at:animated:)`; the index is clamped to the segments.
    open func insertSegment(withTitle title: String?, at segment: Int, animated: Bool) {
        insert(Segment(title: title), at: segment)
    }

    /// Stands in for `UISegmentedControl.insertSegment(with:at:animated:)`.
    open func insertSegment(with image: UIImage?, at segment: Int, animated: Bool) {
        insert(Segment(image: image), at: segment)
    }

    /// Stands in for `UISegmentedControl.insertSegment(action:at:animated:)`.
    open func insertSegment(action: UIAction, at segment: Int, animated: Bool) {
        insert(Segment(title: action.title, image: action.image, action: action), at: segment)
    }

    /// Stands in for `UISegmentedControl.removeSegment(at:animated:)`.
    open func removeSegment(at segment: Int, animated: Bool) {
        guard segments.indices.contains(segment) else { return }
        segments.remove(at: segment)
        if selectedSegmentIndex == segment { selectedSegmentIndex = Self.noSegment } else if selectedSegmentIndex > segment { selectedSegmentIndex -= 1 }
    }

    /// Stands in for `UISegmentedControl.removeAllSegments()`.
    open func removeAllSegments() {
        segments = []
        selectedSegmentIndex = Self.noSegment
    }

    /// Stands in for `UISegmentedControl.setTitle(_:forSegmentAt:)`.
    open func setTitle(_ title: String?, forSegmentAt segment: Int) {
        if segments.indices.contains(segment) { segments[segment].title = title }
    }

    /// Stands in for `UISegmentedControl.titleForSegment(at:)`.
    open func titleForSegment(at segment: Int) -> String? {
        segments.indices.contains(segment) ? segments[segment].title : nil
    }

    /// Stands in for `UISegmentedControl.setImage(_:forSegmentAt:)`.
    open func setImage(_ image: UIImage?, forSegmentAt segment: Int) {
        if segments.indices.contains(segment) { segments[segment].image = image }
    }

    /// Stands in for `UISegmentedControl.imageForSegment(at:)`.
    open func imageForSegment(at segment: Int) -> UIImage? {
        segments.indices.contains(segment) ? segments[segment].image : nil
    }

    /// Stands in for `UISegmentedControl.setEnabled(_:forSegmentAt:)`.
    open func setEnabled(_ enabled: Bool, forSegmentAt segment: Int) {
        if segments.indices.contains(segment) { segments[segment].isEnabled = enabled }
    }

    /// Stands in for `UISegmentedControl.isEnabledForSegment(at:)`.
    open func isEnabledForSegment(at segment: Int) -> Bool {
        segments.indices.contains(segment) && segments[segment].isEnabled
    }

    /// Stands in for `UISegmentedControl.actionForSegment(at:)`.
    open func actionForSegment(at segment: Int) -> UIAction? {
        segments.indices.contains(segment) ? segments[segment].action : nil
    }

    private func insert(_ added: Segment, at segment: Int) {
        let index = max(0, min(segment, segments.count))
        segments.insert(added, at: index)
        if selectedSegmentIndex != Self.noSegment && selectedSegmentIndex >= index { selectedSegmentIndex += 1 }
    }
}
