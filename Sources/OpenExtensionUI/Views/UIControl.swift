public import Foundation
public import OpenImageIO

/// What a control's action is called with. Stands in for UIKit's `UIActionHandler`.
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// An item of a menu: its title and image. Stands in for UIKit's `UIMenuElement`.
@preconcurrency @MainActor
open class UIMenuElement: NSObject {
    /// Stands in for `UIMenuElement.title`.
    open var title: String
    /// Stands in for `UIMenuElement.image`.
    open var image: UIImage?

    init(title: String, image: UIImage?) {
        self.title = title
        self.image = image
        super.init()
    }
}

/// A menu of actions and menus, kept; nothing shows it here. Stands in for UIKit's `UIMenu`.
@preconcurrency @MainActor
open class UIMenu: UIMenuElement {
    /// Stands in for `UIMenu.Identifier`.
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// Stands in for `UIMenu.Options`, with UIKit's bits.
    public struct Options: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let displayInline = Options(rawValue: 1 << 0)
        public static let destructive = Options(rawValue: 1 << 1)
        public static let singleSelection = Options(rawValue: 1 << 5)
    }

    /// Stands in for `UIMenu.identifier`.
    public let identifier: Identifier
    /// Stands in for `UIMenu.options`.
    public let options: Options
    /// Stands in for `UIMenu.children`.
    public let children: [UIMenuElement]

    private init(title: String, image: UIImage?, identifier: Identifier, options: Options, children: [UIMenuElement]) {
        self.identifier = identifier
        self.options = options
        self.children = children
        super.init(title: title, image: image)
    }

    /// Stands in for `UIMenu.init(title:image:identifier:options:children:)`.
    public convenience init(title: String = "", image: UIImage? = nil, identifier: UIMenu.Identifier? = nil,
                            options: UIMenu.Options = [], children: [UIMenuElement] = []) {
        self.init(title: title, image: image, identifier: identifier ?? Identifier(UUID().uuidString), options: options,
                  children: children)
    }
}

/// An action with its title, image and handler. Stands in for UIKit's `UIAction`.
@preconcurrency @MainActor
open class UIAction: UIMenuElement {
    /// The control or bar button item that sent the action, while its handler runs. Stands in for `UIAction.sender`.
    open private(set) var sender: Any?
    let handler: UIActionHandler

    /// Stands in for `UIAction.init(title:image:identifier:discoverabilityTitle:attributes:state:handler:)`, with
    /// the title, image and handler.
    public init(title: String = "", image: UIImage? = nil, handler: @escaping UIActionHandler) {
        self.handler = handler
        super.init(title: title, image: image)
    }

    func perform(from sender: Any) {
        self.sender = sender
        defer { self.sender = nil }
        handler(self)
    }
}

/// A view a person acts on, whose actions run when its events are sent. Stands in for UIKit's `UIControl`.
@preconcurrency @MainActor
open class UIControl: UIView {
    /// Stands in for `UIControl.State`, with UIKit's bits.
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    /// Stands in for `UIControl.Event`, with UIKit's bits.
    public struct Event: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let editingChanged = Event(rawValue: 1 << 17)
    }

    /// Stands in for `UIControl.isEnabled`.
    open var isEnabled = true
    /// Stands in for `UIControl.isSelected`.
    open var isSelected = false
    /// Stands in for `UIControl.isHighlighted`.
    open var isHighlighted = false
    /// The control's state, from its flags. Stands in for `UIControl.state`.
    open var state: State {
        var state: State = []
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        if isHighlighted { state.insert(.highlighted) }
        return state
    }

    private var actions: [(action: UIAction, events: Event)] = []

    /// Stands in for `UIControl.addAction(_:for:)`.
    open func addAction(_ action: UIAction, for controlEvents: UIControl.Event) {
        actions.append((action, controlEvents))
    }

    /// Stands in for `UIControl.removeAction(_:for:)`.
    open func removeAction(_ action: UIAction, for controlEvents: UIControl.Event) {
        actions.removeAll { $0.action === action && !$0.events.isDisjoint(with: controlEvents) }
    }

    /// Runs, in the order added, the actions added for any of `controlEvents`, as a touch's events do. Stands in for
    /// `UIControl.sendActions(for:)`.
    open func sendActions(for controlEvents: UIControl.Event) {
        for (action, events) in actions where !events.isDisjoint(with: controlEvents) { action.perform(from: self) }
    }
}

/// A button: its titles, images and colours per state, kept; its actions run when its events are sent. Stands in
/// for UIKit's `UIButton`.
@preconcurrency @MainActor
open class UIButton: UIControl {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UIButton.ButtonType`, with UIKit's raw values.
    public enum ButtonType: Int, Sendable {
        case custom = 0, system, detailDisclosure, infoLight, infoDark, contactAdd, close = 7
        /// Stands in for `UIButton.ButtonType.plain`.
        public static let plain = ButtonType.system
    }

    /// Stands in for `UIButton.buttonType`.
    public let buttonType: ButtonType
    /// The label showing the current title. Stands in for `UIButton.titleLabel`.
    open private(set) var titleLabel: UILabel? = UILabel()
    private var titles: [State: String] = [:]
    private var images: [State: UIImage] = [:]
    private var titleColors: [State: UIColor] = [:]

    /// Stands in for `UIButton.init(type:)`.
    public init(type buttonType: ButtonType) {
        self.buttonType = buttonType
        super.init(frame: .zero)
    }

    public override init(frame: CGRect) {
        buttonType = .custom
        super.init(frame: frame)
    }

    /// A system button whose primary action is `primaryAction`, its title the action's. Stands in for
    /// `UIButton.init(type:primaryAction:)`.
    public convenience init(type buttonType: ButtonType = .system, primaryAction: UIAction?) {
        self.init(type: buttonType)
        if let primaryAction {
            setTitle(primaryAction.title, for: .normal)
            setImage(primaryAction.image, for: .normal)
            addAction(primaryAction, for: .primaryActionTriggered)
        }
    }

    /// Stands in for `UIButton.setTitle(_:for:)`.
    open func setTitle(_ title: String?, for state: UIControl.State) {
        titles[state] = title
        titleLabel?.text = currentTitle
    }

    /// The title for `state`, or the normal one. Stands in for `UIButton.title(for:)`.
    open func title(for state: UIControl.State) -> String? { titles[state] ?? titles[.normal] }
    /// Stands in for `UIButton.currentTitle`.
    open var currentTitle: String? { title(for: state) }

    /// Stands in for `UIButton.setImage(_:for:)`.
    open func setImage(_ image: UIImage?, for state: UIControl.State) { images[state] = image }
    /// Stands in for `UIButton.image(for:)`.
    open func image(for state: UIControl.State) -> UIImage? { images[state] ?? images[.normal] }
    /// Stands in for `UIButton.setTitleColor(_:for:)`.
    open func setTitleColor(_ color: UIColor?, for state: UIControl.State) { titleColors[state] = color }
    /// Stands in for `UIButton.titleColor(for:)`.
    open func titleColor(for state: UIControl.State) -> UIColor? { titleColors[state] ?? titleColors[.normal] }
}

/// An on/off switch: its state kept; a person's toggle sends `.valueChanged`, setting it in code sends nothing,
/// as UIKit's. Stands in for UIKit's `UISwitch`.
@preconcurrency @MainActor
open class UISwitch: UIControl {
    /// Never decoded from storyboards here. Stands in for `init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UISwitch.isOn`.
    open var isOn = false
    /// Stands in for `UISwitch.onTintColor`.
    open var onTintColor: UIColor?
    /// Stands in for `UISwitch.thumbTintColor`.
    open var thumbTintColor: UIColor?

    /// Stands in for `UISwitch.init(frame:)`; a switch is 51 × 31 points whatever the frame says, as UIKit's.
    public override init(frame: CGRect) {
        super.init(frame: CGRect(origin: frame.origin, size: CGSize(width: 51, height: 31)))
    }

    /// Stands in for `UISwitch.setOn(_:animated:)`.
    open func setOn(_ on: Bool, animated: Bool) {
        isOn = on
    }
}
