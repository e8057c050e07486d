public import Foundation
public import OpenImageIO

/// A bar of progress from 0 to 1: set directly, or following a `Progress` (`observedProgress`), as upload
/// sheets show theirs. Nothing draws it. Stands in for UIKit's `UIProgressView`.
@preconcurrency @MainActor
open class UIProgressView: UIView {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UIProgressView.Style`, with UIKit's raw values.
    public enum Style: Int, Sendable {
        case `default` = 0, bar
    }

    /// Stands in for `UIProgressView.progressViewStyle`.
    open var progressViewStyle: Style = .default
    /// Stands in for `UIProgressView.progressTintColor`.
    open var progressTintColor: UIColor?
    /// Stands in for `UIProgressView.trackTintColor`.
    open var trackTintColor: UIColor?
    /// Stands in for `UIProgressView.progressImage`.
    open var progressImage: UIImage?
    /// Stands in for `UIProgressView.trackImage`.
    open var trackImage: UIImage?
    /// The progress the bar follows: while set, `progress` is its fraction completed. Stands in for
    /// `UIProgressView.observedProgress`.
    open var observedProgress: Progress?

    private var storedProgress: Float = 0

    /// Stands in for `UIProgressView.progress`: 0 to 1, a value outside clamped.
    open var progress: Float {
        get { observedProgress.map { Float(min(1, max(0, $0.fractionCompleted))) } ?? storedProgress }
        set { storedProgress = min(1, max(0, newValue.isNaN ? 0 : newValue)) }
    }

    /// Stands in for `UIProgressView.init(progressViewStyle:)`.
    public init(progressViewStyle style: Style) {
        progressViewStyle = style
        super.init(frame: .zero)
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Stands in for `UIProgressView.setProgress(_:animated:)`.
    open func setProgress(_ progress: Float, animated: Bool) {
        self.progress = progress
    }
}

/// What a visual-effect view applies. Stands in for UIKit's `UIVisualEffect`.
// @unchecked: Apple's UIVisualEffect is immutable and Sendable; an open NSObject subclass the compiler cannot check.
open class UIVisualEffect: NSObject, @unchecked Sendable {}

/// A blur of what is behind a view, in one of UIKit's styles; nothing is blurred here. Stands in for UIKit's
/// `UIBlurEffect`.
open class UIBlurEffect: UIVisualEffect, @unchecked Sendable {
    /// Stands in for `UIBlurEffect.Style`, with UIKit's raw values.
    public enum Style: Int, Sendable {
        case extraLight = 0, light, dark, regular = 4, prominent
        case systemUltraThinMaterial = 6, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial
        case systemUltraThinMaterialLight = 11, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight,
             systemChromeMaterialLight
        case systemUltraThinMaterialDark = 16, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark,
             systemChromeMaterialDark
    }

    /// The style the effect was made with.
    let style: Style

    /// Stands in for `UIBlurEffect.init(style:)`.
    public init(style: Style) {
        self.style = style
    }
}

/// A view that shows an effect behind its content, which goes in `contentView`, as UIKit requires. Stands in
/// for UIKit's `UIVisualEffectView`.
@preconcurrency @MainActor
open class UIVisualEffectView: UIView {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UIVisualEffectView.effect`.
    open var effect: UIVisualEffect?
    /// Where the view's content goes. Stands in for `UIVisualEffectView.contentView`.
    public let contentView = UIView()

    /// Stands in for `UIVisualEffectView.init(effect:)`.
    public init(effect: UIVisualEffect?) {
        self.effect = effect
        super.init(frame: .zero)
        addSubview(contentView)
    }

    public override convenience init(frame: CGRect) {
        self.init(effect: nil)
        self.frame = frame
    }

    /// The content view fills the effect view.
    open override func layoutSubviews() {
        super.layoutSubviews()
        contentView.frame = bounds
    }
}
