public import Foundation

extension IndexPath {
    /// Stands in for UIKit's `IndexPath.init(item:section:)`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The second index. Stands in for UIKit's `IndexPath.item`.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}

/// An item of a collection view: a content view for the item's own subviews. Stands in for UIKit's
/// `UICollectionViewCell`.
@preconcurrency @MainActor
open class UICollectionViewCell: UIView {
    /// Stands in for `UICollectionViewCell.reuseIdentifier`.
    open internal(set) var reuseIdentifier: String?
    /// The view a cell's own subviews go in. Stands in for `UICollectionViewCell.contentView`.
    open private(set) var contentView = UIView()
    /// Stands in for `UICollectionViewCell.backgroundView`.
    open var backgroundView: UIView?
    /// Stands in for `UICollectionViewCell.selectedBackgroundView`.
    open var selectedBackgroundView: UIView?
    /// Stands in for `UICollectionViewCell.isSelected`.
    open var isSelected = false
    /// Stands in for `UICollectionViewCell.isHighlighted`.
    open var isHighlighted = false

    /// Stands in for `UICollectionViewCell.init(frame:)`.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        contentView.frame = CGRect(origin: .zero, size: frame.size)
        addSubview(contentView)
    }

    /// Never decoded from storyboards here. Stands in for `UICollectionViewCell.init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// How a collection view makes a cell of a registered class: through the class's own `init(frame:)`, which a
    /// subclass that overrides it reaches here by dynamic dispatch (see `UITableViewCell`'s twin).
    ///
    /// An OpenSharing addition, for `UICollectionView`'s use; extension code calls `init(frame:)`.
    public required convenience init(_registeredWithReuseIdentifier reuseIdentifier: String) {
        self.init(frame: .zero)
        self.reuseIdentifier = reuseIdentifier
    }

    /// Called before a collection view hands the cell out again. Stands in for
    /// `UICollectionReusableView.prepareForReuse()`.
    open func prepareForReuse() {}
}

/// What a collection view shows. Stands in for UIKit's `UICollectionViewDataSource`; the requirement UIKit makes
/// optional has UIKit's default.
@MainActor
public protocol UICollectionViewDataSource: NSObjectProtocol {
    /// Stands in for `UICollectionViewDataSource.collectionView(_:numberOfItemsInSection:)`.
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
    /// Stands in for `UICollectionViewDataSource.collectionView(_:cellForItemAt:)`.
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
    /// Stands in for `UICollectionViewDataSource.numberOfSections(in:)` (by default, one).
    func numberOfSections(in collectionView: UICollectionView) -> Int
}

extension UICollectionViewDataSource {
    public func numberOfSections(in collectionView: UICollectionView) -> Int { 1 }
}

/// Told of, and asked about, a collection view's items. Stands in for UIKit's `UICollectionViewDelegate`; every
/// requirement has a default with UIKit's behaviour, as its methods are optional.
@MainActor
public protocol UICollectionViewDelegate: UIScrollViewDelegate {
    /// Stands in for `UICollectionViewDelegate.collectionView(_:willDisplay:forItemAt:)`.
    func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath)
    /// Stands in for `UICollectionViewDelegate.collectionView(_:shouldSelectItemAt:)` (by default, yes).
    func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
    /// Stands in for `UICollectionViewDelegate.collectionView(_:didSelectItemAt:)`.
    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath)
    /// Stands in for `UICollectionViewDelegate.collectionView(_:didDeselectItemAt:)`.
    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath)
}

extension UICollectionViewDelegate {
    public func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {}
}

/// Asked for the sizes and spacing a flow layout uses, section by section. Stands in for UIKit's
/// `UICollectionViewDelegateFlowLayout`; each answer defaults to the layout's own property, as UIKit's does.
@MainActor
public protocol UICollectionViewDelegateFlowLayout: UICollectionViewDelegate {
    /// Stands in for `UICollectionViewDelegateFlowLayout.collectionView(_:layout:sizeForItemAt:)`.
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize
    /// Stands in for `UICollectionViewDelegateFlowLayout.collectionView(_:layout:insetForSectionAt:)`.
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, insetForSectionAt section: Int) -> UIEdgeInsets
    /// Stands in for `UICollectionViewDelegateFlowLayout.collectionView(_:layout:minimumLineSpacingForSectionAt:)`.
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, minimumLineSpacingForSectionAt section: Int) -> CGFloat
    /// Stands in for `UICollectionViewDelegateFlowLayout.collectionView(_:layout:minimumInteritemSpacingForSectionAt:)`.
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        minimumInteritemSpacingForSectionAt section: Int) -> CGFloat
}

extension UICollectionViewDelegateFlowLayout {
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        (collectionViewLayout as? UICollectionViewFlowLayout)?.itemSize ?? UICollectionViewFlowLayout.defaultItemSize
    }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, insetForSectionAt section: Int) -> UIEdgeInsets {
        (collectionViewLayout as? UICollectionViewFlowLayout)?.sectionInset ?? .zero
    }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, minimumLineSpacingForSectionAt section: Int) -> CGFloat {
        (collectionViewLayout as? UICollectionViewFlowLayout)?.minimumLineSpacing ?? 10
    }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               minimumInteritemSpacingForSectionAt section: Int) -> CGFloat {
        (collectionViewLayout as? UICollectionViewFlowLayout)?.minimumInteritemSpacing ?? 10
    }
}

/// How a collection view places its items. Stands in for UIKit's `UICollectionViewLayout`: a layout of no
/// kind UIKit defines places items as a flow layout with its defaults does.
@preconcurrency @MainActor
open class UICollectionViewLayout: NSObject {
    /// Stands in for `UICollectionViewLayout.collectionView`.
    open internal(set) weak var collectionView: UICollectionView?

    public override init() {
        super.init()
    }

    /// Stands in for `UICollectionViewLayout.invalidateLayout()`: the view lays itself out again.
    open func invalidateLayout() {
        collectionView?.setNeedsItemsLaidOut()
    }
}

/// Items in lines, each line as many as fit across (down, scrolling sideways), the lines spaced as asked. Stands
/// in for UIKit's `UICollectionViewFlowLayout`, with its defaults (50 × 50 items, 10 points between items and
/// lines, no section insets, scrolling vertically).
@preconcurrency @MainActor
open class UICollectionViewFlowLayout: UICollectionViewLayout {
    /// UIKit's default item size.
    nonisolated static let defaultItemSize = CGSize(width: 50, height: 50)
    /// An item size its cell decides. Stands in for `UICollectionViewFlowLayout.automaticSize`; here, where no
    /// content is measured, such an item is laid out at the estimated size, else the item size.
    nonisolated public static let automaticSize = CGSize(width: -1, height: -1)

    /// Stands in for `UICollectionViewFlowLayout.itemSize`.
    open var itemSize = UICollectionViewFlowLayout.defaultItemSize { didSet { invalidateLayout() } }
    /// Stands in for `UICollectionViewFlowLayout.estimatedItemSize`.
    open var estimatedItemSize = CGSize.zero
    /// Stands in for `UICollectionViewFlowLayout.minimumLineSpacing`.
    open var minimumLineSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// Stands in for `UICollectionViewFlowLayout.minimumInteritemSpacing`.
    open var minimumInteritemSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// Stands in for `UICollectionViewFlowLayout.sectionInset`.
    open var sectionInset = UIEdgeInsets.zero { didSet { invalidateLayout() } }
    /// Stands in for `UICollectionViewFlowLayout.scrollDirection`.
    open var scrollDirection = UICollectionView.ScrollDirection.vertical { didSet { invalidateLayout() } }
    /// Stands in for `UICollectionViewFlowLayout.headerReferenceSize`: kept; no header view is asked for here.
    open var headerReferenceSize = CGSize.zero
    /// Stands in for `UICollectionViewFlowLayout.footerReferenceSize`: kept; no footer view is asked for here.
    open var footerReferenceSize = CGSize.zero
}

/// A collection view that asks its data source as UIKit's does: when it is laid out on screen after being made or
/// told to reload, for the number of sections and of items in each, then for a cell for each item its flow layout
/// places within its bounds (the screen's while constraints leave it unsized, as nothing solves them here),
/// handing out registered or reused cells; a person's selection goes through the delegate.
///
/// Stands in for UIKit's `UICollectionView`.
@preconcurrency @MainActor
open class UICollectionView: UIScrollView {
    /// Stands in for `UICollectionView.ScrollDirection`, with UIKit's raw values.
    public enum ScrollDirection: Int, Sendable {
        case vertical = 0, horizontal
    }

    /// Where an item is scrolled to. Stands in for `UICollectionView.ScrollPosition`, with UIKit's raw values;
    /// nothing scrolls here.
    public struct ScrollPosition: OptionSet, Sendable, Hashable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let top = ScrollPosition(rawValue: 1)
        public static let centeredVertically = ScrollPosition(rawValue: 2)
        public static let bottom = ScrollPosition(rawValue: 4)
        public static let left = ScrollPosition(rawValue: 8)
        public static let centeredHorizontally = ScrollPosition(rawValue: 16)
        public static let right = ScrollPosition(rawValue: 32)
    }

    /// Stands in for `UICollectionView.collectionViewLayout`.
    open var collectionViewLayout: UICollectionViewLayout {
        didSet {
            collectionViewLayout.collectionView = self
            setNeedsItemsLaidOut()
        }
    }
    /// Stands in for `UICollectionView.dataSource`.
    open weak var dataSource: (any UICollectionViewDataSource)?
    /// Stands in for `UICollectionView.allowsSelection`.
    open var allowsSelection = true
    /// Stands in for `UICollectionView.allowsMultipleSelection`.
    open var allowsMultipleSelection = false

    private var registered: [String: UICollectionViewCell.Type] = [:]
    private var reusable: [String: [UICollectionViewCell]] = [:]
    private var shown: [(indexPath: IndexPath, cell: UICollectionViewCell)] = []
    private var itemCounts: [Int] = []
    private var needsReload = true
    private var selected: [IndexPath] = []

    /// Stands in for `UICollectionView.init(frame:collectionViewLayout:)`.
    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
        layout.collectionView = self
    }

    /// Never decoded from storyboards here. Stands in for `UICollectionView.init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Stands in for `UICollectionView.register(_:forCellWithReuseIdentifier:)`; `cellClass` must be a
    /// `UICollectionViewCell` subclass, and `nil` unregisters the identifier.
    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        guard let cellClass else { return registered[identifier] = nil }
        guard let cellType = cellClass as? UICollectionViewCell.Type else {
            fatalError("register(_:forCellWithReuseIdentifier:): \(cellClass) is not a UICollectionViewCell subclass")
        }
        registered[identifier] = cellType
    }

    /// A reused cell or one of the class registered for `identifier`. As on iOS, an identifier with no class
    /// registered ends the process (UIKit raises an exception no Swift code can catch).
    ///
    /// Stands in for `UICollectionView.dequeueReusableCell(withReuseIdentifier:for:)`.
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell {
        if var queue = reusable[identifier], !queue.isEmpty {
            let cell = queue.removeLast()
            reusable[identifier] = queue
            cell.prepareForReuse()
            return cell
        }
        guard let cellType = registered[identifier] else {
            fatalError("could not dequeue a view of kind: UICollectionElementKindCell with identifier \(identifier) - must register a nib or a class for the identifier or connect a prototype cell in a storyboard")
        }
        return cellType.init(_registeredWithReuseIdentifier: identifier)
    }

    /// Asks the data source again when the view is next laid out, as UIKit does, and lays it out on the main
    /// queue's next turn when it is on screen. Stands in for `UICollectionView.reloadData()`.
    open func reloadData() {
        selected.removeAll()
        setNeedsItemsLaidOut()
    }

    /// Stands in for `UICollectionView.reloadSections(_:)`: the view reloads.
    open func reloadSections(_ sections: IndexSet) { reloadData() }
    /// Stands in for `UICollectionView.insertItems(at:)`: the view reloads.
    open func insertItems(at indexPaths: [IndexPath]) { reloadData() }
    /// Stands in for `UICollectionView.deleteItems(at:)`: the view reloads.
    open func deleteItems(at indexPaths: [IndexPath]) { reloadData() }
    /// Stands in for `UICollectionView.reloadItems(at:)`: the view reloads.
    open func reloadItems(at indexPaths: [IndexPath]) { reloadData() }

    /// Runs `updates`, reloads, and calls `completion` with `true` on the main queue's next turn, once laid out.
    /// Stands in for `UICollectionView.performBatchUpdates(_:completion:)`.
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        updates?()
        reloadData()
        guard let completion else { return }
        DispatchQueue.main.async { completion(true) }
    }

    /// Stands in for `UICollectionView.numberOfSections`.
    open var numberOfSections: Int {
        loadCountsIfNeeded()
        return itemCounts.count
    }

    /// Stands in for `UICollectionView.numberOfItems(inSection:)`.
    open func numberOfItems(inSection section: Int) -> Int {
        loadCountsIfNeeded()
        return itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    /// The cell showing the item at `indexPath`, or `nil` when that item is not on screen. Stands in for
    /// `UICollectionView.cellForItem(at:)`.
    open func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? {
        shown.first { $0.indexPath == indexPath }?.cell
    }

    /// Stands in for `UICollectionView.visibleCells`.
    open var visibleCells: [UICollectionViewCell] { shown.map(\.cell) }
    /// Stands in for `UICollectionView.indexPathsForVisibleItems`.
    open var indexPathsForVisibleItems: [IndexPath] { shown.map(\.indexPath) }
    /// Stands in for `UICollectionView.indexPathsForSelectedItems`.
    open var indexPathsForSelectedItems: [IndexPath]? { selected.isEmpty ? nil : selected }

    /// Selects the item without telling the delegate, as UIKit does. Stands in for
    /// `UICollectionView.selectItem(at:animated:scrollPosition:)`.
    open func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath else { return selected.forEach { deselectItem(at: $0, animated: animated) } }
        guard allowsSelection, contains(indexPath) else { return }
        if !allowsMultipleSelection { selected.filter { $0 != indexPath }.forEach { deselectItem(at: $0, animated: animated) } }
        if !selected.contains(indexPath) { selected.append(indexPath) }
        cellForItem(at: indexPath)?.isSelected = true
    }

    /// Deselects the item without telling the delegate, as UIKit does. Stands in for
    /// `UICollectionView.deselectItem(at:animated:)`.
    open func deselectItem(at indexPath: IndexPath, animated: Bool) {
        selected.removeAll { $0 == indexPath }
        cellForItem(at: indexPath)?.isSelected = false
    }

    /// Stands in for `UICollectionView.scrollToItem(at:at:animated:)`; nothing scrolls here.
    open func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {}

    /// What a person's tap on the item at `indexPath` does: the delegate may refuse it (`shouldSelectItemAt`),
    /// the item is selected (another deselected, with `didDeselectItemAt`, unless several may be), then
    /// `didSelectItemAt`.
    func tapItem(at indexPath: IndexPath) {
        guard allowsSelection, contains(indexPath) else { return }
        let delegate = delegate as? any UICollectionViewDelegate
        guard delegate?.collectionView(self, shouldSelectItemAt: indexPath) ?? true else { return }
        if !allowsMultipleSelection {
            for other in selected where other != indexPath {
                deselectItem(at: other, animated: true)
                delegate?.collectionView(self, didDeselectItemAt: other)
            }
        }
        selectItem(at: indexPath, animated: true, scrollPosition: [])
        delegate?.collectionView(self, didSelectItemAt: indexPath)
    }

    /// Marks the items to be asked for again, and lays the view out on the main queue's next turn when it is on
    /// screen.
    func setNeedsItemsLaidOut() {
        needsReload = true
        itemCounts = []
        guard isOnScreen else { return }
        DispatchQueue.main.async { [weak self] in self?.layoutIfNeeded() }
    }

    /// Asks the data source for what changed since the last reload: the counts, then a cell for each item the
    /// flow layout places within the bounds, each told to the delegate before it shows.
    open override func layoutSubviews() {
        super.layoutSubviews()
        guard needsReload, isOnScreen else { return }
        needsReload = false
        itemCounts = []
        loadCountsIfNeeded()
        for (_, cell) in shown {
            cell.removeFromSuperview()
            if let identifier = cell.reuseIdentifier { reusable[identifier, default: []].append(cell) }
        }
        shown = []
        guard let dataSource else { return }
        let delegate = delegate as? any UICollectionViewDelegate
        for (indexPath, frame) in placedItems() {
            let cell = dataSource.collectionView(self, cellForItemAt: indexPath)
            cell.frame = frame
            cell.isSelected = selected.contains(indexPath)
            delegate?.collectionView(self, willDisplay: cell, forItemAt: indexPath)
            addSubview(cell)
            shown.append((indexPath, cell))
        }
    }

    /// Where the flow layout puts each item that falls within the visible bounds (the screen's where the view is
    /// unsized), in order; the content size for all of them.
    private func placedItems() -> [(IndexPath, CGRect)] {
        let flow = collectionViewLayout as? UICollectionViewFlowLayout ?? UICollectionViewFlowLayout()
        let sizing = delegate as? any UICollectionViewDelegateFlowLayout
        let vertical = flow.scrollDirection == .vertical
        let visible = CGSize(width: bounds.width > 0 ? bounds.width : UIScreen.main.bounds.width,
                             height: bounds.height > 0 ? bounds.height : UIScreen.main.bounds.height)
        // Along the lines (across) and from line to line (down), whichever way the view scrolls.
        let across = vertical ? visible.width : visible.height, reach = vertical ? visible.height : visible.width
        var placed: [(IndexPath, CGRect)] = []
        var lineStart: CGFloat = 0
        for (section, items) in itemCounts.enumerated() {
            let inset = sizing?.collectionView(self, layout: flow, insetForSectionAt: section) ?? flow.sectionInset
            let lineSpacing = sizing?.collectionView(self, layout: flow, minimumLineSpacingForSectionAt: section) ?? flow.minimumLineSpacing
            let itemSpacing = sizing?.collectionView(self, layout: flow, minimumInteritemSpacingForSectionAt: section) ?? flow.minimumInteritemSpacing
            let (before, after) = vertical ? (inset.left, inset.right) : (inset.top, inset.bottom)
            lineStart += vertical ? inset.top : inset.left
            var position = before, lineDepth: CGFloat = 0
            for item in 0..<items {
                let indexPath = IndexPath(item: item, section: section)
                var size = sizing?.collectionView(self, layout: flow, sizeForItemAt: indexPath) ?? flow.itemSize
                if size.width < 0 || size.height < 0 { size = flow.estimatedItemSize == .zero ? Self.fallbackItemSize(flow) : flow.estimatedItemSize }
                let length = vertical ? size.width : size.height, depth = vertical ? size.height : size.width
                // The next line, when this item does not fit after the ones already on this one.
                if position > before && position + length > across - after {
                    lineStart += lineDepth + lineSpacing
                    position = before
                    lineDepth = 0
                }
                if lineStart < reach {
                    let frame = vertical ? CGRect(x: position, y: lineStart, width: size.width, height: size.height)
                        : CGRect(x: lineStart, y: position, width: size.width, height: size.height)
                    placed.append((indexPath, frame))
                }
                position += length + itemSpacing
                lineDepth = max(lineDepth, depth)
            }
            lineStart += lineDepth + (vertical ? inset.bottom : inset.right)
        }
        contentSize = vertical ? CGSize(width: visible.width, height: lineStart) : CGSize(width: lineStart, height: visible.height)
        return placed
    }

    /// The size an item of automatic size takes where no estimate is given: the layout's item size, else UIKit's default.
    private static func fallbackItemSize(_ flow: UICollectionViewFlowLayout) -> CGSize {
        flow.itemSize.width > 0 && flow.itemSize.height > 0 ? flow.itemSize : UICollectionViewFlowLayout.defaultItemSize
    }

    private func loadCountsIfNeeded() {
        guard itemCounts.isEmpty, let dataSource else { return }
        let sections = max(0, dataSource.numberOfSections(in: self))
        itemCounts = (0..<sections).map { max(0, dataSource.collectionView(self, numberOfItemsInSection: $0)) }
    }

    private func contains(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && indexPath.item >= 0 && indexPath.item < numberOfItems(inSection: indexPath.section)
    }
}
