public import Foundation
public import OpenImageIO

extension IndexPath {
    /// Stands in for UIKit's `IndexPath.init(row:section:)`.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The second index. Stands in for UIKit's `IndexPath.row`.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The first index. Stands in for UIKit's `IndexPath.section`.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }
}

/// A row of a table: a content view holding the labels and image view its style gives. Stands in for UIKit's
/// `UITableViewCell`.
@preconcurrency @MainActor
open class UITableViewCell: UIView {
    /// Which labels a cell has. Stands in for `UITableViewCell.CellStyle`, with UIKit's raw values.
    public enum CellStyle: Int, Sendable {
        case `default` = 0, value1, value2, subtitle
    }

    /// Stands in for `UITableViewCell.AccessoryType`, with UIKit's raw values.
    public enum AccessoryType: Int, Sendable {
        case none = 0, disclosureIndicator, detailDisclosureButton, checkmark, detailButton
    }

    /// Stands in for `UITableViewCell.SelectionStyle`, with UIKit's raw values.
    public enum SelectionStyle: Int, Sendable {
        case none = 0, blue, gray, `default`
    }

    /// Stands in for `UITableViewCell.reuseIdentifier`.
    open private(set) var reuseIdentifier: String?
    /// The view a cell's own subviews go in. Stands in for `UITableViewCell.contentView`.
    open private(set) var contentView = UIView()
    /// The main label, which every style has. Stands in for `UITableViewCell.textLabel`.
    open private(set) var textLabel: UILabel?
    /// The second label, which every style but `default` has. Stands in for `UITableViewCell.detailTextLabel`.
    open private(set) var detailTextLabel: UILabel?
    /// Stands in for `UITableViewCell.imageView`.
    open private(set) var imageView: UIImageView?
    /// Stands in for `UITableViewCell.accessoryType`.
    open var accessoryType: AccessoryType = .none
    /// Stands in for `UITableViewCell.accessoryView`.
    open var accessoryView: UIView?
    /// Stands in for `UITableViewCell.selectionStyle`.
    open var selectionStyle: SelectionStyle = .default
    /// Stands in for `UITableViewCell.separatorInset`.
    open var separatorInset: UIEdgeInsets = .zero
    /// Stands in for `UITableViewCell.indentationLevel`.
    open var indentationLevel = 0
    /// The points each level indents (10, as UIKit's default). Stands in for `UITableViewCell.indentationWidth`.
    open var indentationWidth: CGFloat = 10
    /// Stands in for `UITableViewCell.isSelected`; setting it calls `setSelected(_:animated:)`.
    open var isSelected: Bool {
        get { selected }
        set { setSelected(newValue, animated: false) }
    }
    private var selected = false
    /// Stands in for `UITableViewCell.isHighlighted`.
    open var isHighlighted = false

    /// Stands in for `UITableViewCell.init(style:reuseIdentifier:)`.
    public init(style: CellStyle, reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: CGRect(x: 0, y: 0, width: 320, height: 44))
        let textLabel = UILabel()
        contentView.addSubview(textLabel)
        self.textLabel = textLabel
        if style != .default {
            let detail = UILabel()
            contentView.addSubview(detail)
            detailTextLabel = detail
        }
        let imageView = UIImageView()
        contentView.addSubview(imageView)
        self.imageView = imageView
        addSubview(contentView)
    }

    /// Cells are never decoded from storyboards here. Stands in for `UITableViewCell.init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    public override convenience init(frame: CGRect) {
        self.init(style: .default, reuseIdentifier: nil)
        self.frame = frame
    }

    /// How a table makes a cell of a registered class: through the class's own `init(style:reuseIdentifier:)`,
    /// which a subclass that overrides it reaches here by dynamic dispatch. Objective-C makes the cell through
    /// its runtime; Swift can make an object from a class value only through a required initializer, and this
    /// one, being a convenience initializer, is inherited by every subclass that overrides the designated ones
    /// (as a cell subclass that overrides `init(style:reuseIdentifier:)` must also write `init?(coder:)`).
    ///
    /// An OpenSharing addition, for `UITableView`'s use; extension code calls `init(style:reuseIdentifier:)`.
    public required convenience init(_registeredWithReuseIdentifier reuseIdentifier: String) {
        self.init(style: .default, reuseIdentifier: reuseIdentifier)
    }

    /// Called before a table hands the cell out again. Stands in for `UITableViewCell.prepareForReuse()`.
    open func prepareForReuse() {}

    /// Stands in for `UITableViewCell.setSelected(_:animated:)`.
    open func setSelected(_ selected: Bool, animated: Bool) {
        self.selected = selected
    }

    /// Stands in for `UITableViewCell.setHighlighted(_:animated:)`.
    open func setHighlighted(_ highlighted: Bool, animated: Bool) {
        isHighlighted = highlighted
    }
}

/// What a table shows: its sections, rows and cells. Stands in for UIKit's `UITableViewDataSource`; the
/// requirements UIKit makes optional have defaults with UIKit's behaviour.
@MainActor
public protocol UITableViewDataSource: NSObjectProtocol {
    /// Stands in for `UITableViewDataSource.tableView(_:numberOfRowsInSection:)`.
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int
    /// Stands in for `UITableViewDataSource.tableView(_:cellForRowAt:)`.
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell
    /// Stands in for `UITableViewDataSource.numberOfSections(in:)` (by default, one).
    func numberOfSections(in tableView: UITableView) -> Int
    /// Stands in for `UITableViewDataSource.tableView(_:titleForHeaderInSection:)` (by default, none).
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String?
    /// Stands in for `UITableViewDataSource.tableView(_:titleForFooterInSection:)` (by default, none).
    func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String?
}

extension UITableViewDataSource {
    public func numberOfSections(in tableView: UITableView) -> Int { 1 }
    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    public func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }
}

/// Told of, and asked about, a table's rows. Stands in for UIKit's `UITableViewDelegate`; every requirement has
/// a default with UIKit's behaviour, as its methods are optional.
@MainActor
public protocol UITableViewDelegate: UIScrollViewDelegate {
    /// Stands in for `UITableViewDelegate.tableView(_:heightForRowAt:)` (by default, the table's `rowHeight`).
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat
    /// Stands in for `UITableViewDelegate.tableView(_:willDisplay:forRowAt:)`.
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath)
    /// Stands in for `UITableViewDelegate.tableView(_:willSelectRowAt:)` (by default, the row itself).
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    /// Stands in for `UITableViewDelegate.tableView(_:didSelectRowAt:)`.
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath)
    /// Stands in for `UITableViewDelegate.tableView(_:didDeselectRowAt:)`.
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath)
}

extension UITableViewDelegate {
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { tableView.rowHeight }
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
}

/// A table that asks its data source as UIKit's does: when it is laid out on screen after being made or told to
/// reload, for the number of sections and of rows in each, then for a cell for each row that fits its height (its
/// frame's, or the screen's while constraints leave it unsized, as nothing solves them here), handing out
/// registered or reused cells; a person's selection goes through the delegate.
///
/// Stands in for UIKit's `UITableView`.
@preconcurrency @MainActor
open class UITableView: UIScrollView {
    /// Stands in for `UITableView.Style`, with UIKit's raw values.
    public enum Style: Int, Sendable {
        case plain = 0, grouped, insetGrouped
    }

    /// Stands in for `UITableView.RowAnimation`, with UIKit's raw values.
    public enum RowAnimation: Int, Sendable {
        case fade = 0, right, left, top, bottom, none, middle
        case automatic = 100
    }

    /// Stands in for `UITableView.ScrollPosition`, with UIKit's raw values.
    public enum ScrollPosition: Int, Sendable {
        case none = 0, top, middle, bottom
    }

    /// Stands in for `UITableViewCell.SeparatorStyle`, with UIKit's raw values.
    public enum SeparatorStyle: Int, Sendable {
        case none = 0, singleLine
    }

    /// A row height that the cell's content decides. Stands in for `UITableView.automaticDimension`.
    public static let automaticDimension: CGFloat = -1
    /// The height a row of automatic height is laid out at here, where no content is measured: UIKit's standard row.
    static let standardRowHeight: CGFloat = 44

    /// Stands in for `UITableView.style`.
    public let style: Style
    /// Stands in for `UITableView.dataSource`.
    open weak var dataSource: (any UITableViewDataSource)?
    /// Stands in for `UITableView.rowHeight`.
    open var rowHeight: CGFloat = UITableView.automaticDimension
    /// The space above each section's header (iOS 15), kept. Stands in for `UITableView.sectionHeaderTopPadding`.
    open var sectionHeaderTopPadding: CGFloat = UITableView.automaticDimension
    /// Stands in for `UITableView.estimatedRowHeight`.
    open var estimatedRowHeight: CGFloat = UITableView.automaticDimension
    /// Stands in for `UITableView.separatorStyle`.
    open var separatorStyle: SeparatorStyle = .singleLine
    /// Stands in for `UITableView.separatorInset`.
    open var separatorInset: UIEdgeInsets = .zero
    /// Stands in for `UITableView.allowsSelection`.
    open var allowsSelection = true
    /// Stands in for `UITableView.allowsMultipleSelection`.
    open var allowsMultipleSelection = false
    /// Stands in for `UITableView.tableHeaderView`.
    open var tableHeaderView: UIView?
    /// Stands in for `UITableView.tableFooterView`.
    open var tableFooterView: UIView?
    /// Whether the rows show their editing controls: kept, as nothing is drawn. Stands in for
    /// `UITableView.isEditing`.
    open var isEditing = false

    /// Stands in for `UITableView.setEditing(_:animated:)`.
    open func setEditing(_ editing: Bool, animated: Bool) {
        isEditing = editing
    }

    private var registered: [String: UITableViewCell.Type] = [:]
    private var reusable: [String: [UITableViewCell]] = [:]
    private var shown: [(indexPath: IndexPath, cell: UITableViewCell)] = []
    private var rowCounts: [Int] = []
    private var needsReload = true
    private var selected: [IndexPath] = []

    /// Stands in for `UITableView.init(frame:style:)`.
    public init(frame: CGRect, style: Style) {
        self.style = style
        super.init(frame: frame)
    }

    /// Tables are never decoded from storyboards here. Stands in for `UITableView.init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    public override convenience init(frame: CGRect) {
        self.init(frame: frame, style: .plain)
    }

    /// Stands in for `UITableView.register(_:forCellReuseIdentifier:)`; `cellClass` must be a
    /// `UITableViewCell` subclass, and `nil` unregisters the identifier.
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        guard let cellClass else { return registered[identifier] = nil }
        guard let cellType = cellClass as? UITableViewCell.Type else {
            fatalError("register(_:forCellReuseIdentifier:): \(cellClass) is not a UITableViewCell subclass")
        }
        registered[identifier] = cellType
    }

    /// A cell of `identifier` no row shows any more, or `nil` when there is none and no class is registered for it.
    /// Stands in for `UITableView.dequeueReusableCell(withIdentifier:)`.
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        if var queue = reusable[identifier], !queue.isEmpty {
            let cell = queue.removeLast()
            reusable[identifier] = queue
            cell.prepareForReuse()
            return cell
        }
        return registered[identifier].map { $0.init(_registeredWithReuseIdentifier: identifier) }
    }

    /// A reused cell or one of the class registered for `identifier`. As on iOS, an identifier with no class
    /// registered ends the process (UIKit raises an exception no Swift code can catch).
    ///
    /// Stands in for `UITableView.dequeueReusableCell(withIdentifier:for:)`.
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        guard let cell = dequeueReusableCell(withIdentifier: identifier) else {
            fatalError("unable to dequeue a cell with identifier \(identifier) - must register a nib or a class for the identifier or connect a prototype cell in a storyboard")
        }
        return cell
    }

    /// Asks the data source again when the table is next laid out, as UIKit does, and lays it out on the main
    /// queue's next turn when it is on screen. Stands in for `UITableView.reloadData()`.
    open func reloadData() {
        needsReload = true
        rowCounts = []
        selected.removeAll()
        guard isOnScreen else { return }
        DispatchQueue.main.async { [weak self] in self?.layoutIfNeeded() }
    }

    /// Stands in for `UITableView.insertRows(at:with:)`: the table reloads.
    open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Stands in for `UITableView.deleteRows(at:with:)`: the table reloads.
    open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Stands in for `UITableView.reloadRows(at:with:)`: the table reloads.
    open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    /// Stands in for `UITableView.reloadSections(_:with:)`: the table reloads.
    open func reloadSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    /// Stands in for `UITableView.beginUpdates()`.
    open func beginUpdates() {}
    /// Stands in for `UITableView.endUpdates()`.
    open func endUpdates() {}

    /// Stands in for `UITableView.numberOfSections`.
    open var numberOfSections: Int {
        loadCountsIfNeeded()
        return rowCounts.count
    }

    /// Stands in for `UITableView.numberOfRows(inSection:)`.
    open func numberOfRows(inSection section: Int) -> Int {
        loadCountsIfNeeded()
        return rowCounts.indices.contains(section) ? rowCounts[section] : 0
    }

    /// The cell showing the row at `indexPath`, or `nil` when that row is not on screen. Stands in for
    /// `UITableView.cellForRow(at:)`.
    open func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        shown.first { $0.indexPath == indexPath }?.cell
    }

    /// Stands in for `UITableView.visibleCells`.
    open var visibleCells: [UITableViewCell] { shown.map(\.cell) }
    /// Stands in for `UITableView.indexPathsForVisibleRows`.
    open var indexPathsForVisibleRows: [IndexPath]? { shown.map(\.indexPath) }
    /// Stands in for `UITableView.indexPathForSelectedRow`.
    open var indexPathForSelectedRow: IndexPath? { selected.first }
    /// Stands in for `UITableView.indexPathsForSelectedRows`.
    open var indexPathsForSelectedRows: [IndexPath]? { selected.isEmpty ? nil : selected }

    /// Selects the row without telling the delegate, as UIKit does. Stands in for
    /// `UITableView.selectRow(at:animated:scrollPosition:)`.
    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath else { return selected.forEach { deselectRow(at: $0, animated: animated) } }
        guard allowsSelection, contains(indexPath) else { return }
        if !allowsMultipleSelection { selected.filter { $0 != indexPath }.forEach { deselectRow(at: $0, animated: animated) } }
        if !selected.contains(indexPath) { selected.append(indexPath) }
        cellForRow(at: indexPath)?.setSelected(true, animated: animated)
    }

    /// Deselects the row without telling the delegate, as UIKit does. Stands in for
    /// `UITableView.deselectRow(at:animated:)`.
    open func deselectRow(at indexPath: IndexPath, animated: Bool) {
        selected.removeAll { $0 == indexPath }
        cellForRow(at: indexPath)?.setSelected(false, animated: animated)
    }

    /// Stands in for `UITableView.scrollToRow(at:at:animated:)`; nothing scrolls here.
    open func scrollToRow(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {}

    /// What a person's tap on the row at `indexPath` does: the delegate may redirect or refuse it
    /// (`willSelectRowAt`), the row is selected (another deselected, with `didDeselectRowAt`, unless several may
    /// be), then `didSelectRowAt`.
    func tapRow(at indexPath: IndexPath) {
        guard allowsSelection else { return }
        let delegate = delegate as? any UITableViewDelegate
        guard let chosen = delegate.map({ $0.tableView(self, willSelectRowAt: indexPath) }) ?? indexPath, contains(chosen) else { return }
        if !allowsMultipleSelection {
            for other in selected where other != chosen {
                deselectRow(at: other, animated: true)
                delegate?.tableView(self, didDeselectRowAt: other)
            }
        }
        selectRow(at: chosen, animated: true, scrollPosition: .none)
        delegate?.tableView(self, didSelectRowAt: chosen)
    }

    /// Asks the data source for what changed since the last reload: the counts, then a cell for each row that
    /// fits, each told to the delegate before it shows.
    open override func layoutSubviews() {
        super.layoutSubviews()
        guard needsReload, isOnScreen else { return }
        needsReload = false
        rowCounts = []
        loadCountsIfNeeded()
        for (_, cell) in shown {
            cell.removeFromSuperview()
            if let identifier = cell.reuseIdentifier { reusable[identifier, default: []].append(cell) }
        }
        shown = []
        guard let dataSource else { return }
        let delegate = delegate as? any UITableViewDelegate
        let height = bounds.height > 0 ? bounds.height : UIScreen.main.bounds.height
        var top: CGFloat = 0
        rows: for (section, rows) in rowCounts.enumerated() {
            for row in 0..<rows {
                guard top < height else { break rows }
                let indexPath = IndexPath(row: row, section: section)
                let asked = delegate?.tableView(self, heightForRowAt: indexPath) ?? rowHeight
                let rowHeight = asked >= 0 ? asked : (self.rowHeight >= 0 ? self.rowHeight : Self.standardRowHeight)
                let cell = dataSource.tableView(self, cellForRowAt: indexPath)
                cell.frame = CGRect(x: 0, y: top, width: bounds.width, height: rowHeight)
                cell.setSelected(selected.contains(indexPath), animated: false)
                delegate?.tableView(self, willDisplay: cell, forRowAt: indexPath)
                addSubview(cell)
                shown.append((indexPath, cell))
                top += rowHeight
            }
        }
        contentSize = CGSize(width: bounds.width, height: top)
    }

    private func loadCountsIfNeeded() {
        guard rowCounts.isEmpty, let dataSource else { return }
        let sections = max(0, dataSource.numberOfSections(in: self))
        rowCounts = (0..<sections).map { max(0, dataSource.tableView(self, numberOfRowsInSection: $0)) }
    }

    private func contains(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && indexPath.row >= 0 && indexPath.row < numberOfRows(inSection: indexPath.section)
    }
}
