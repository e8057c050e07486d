public import Foundation
public import OpenImageIO

/// A view controller whose view is a table it is the data source and delegate of: a subclass overrides the
/// table methods it needs (`override func tableView(_:numberOfRowsInSection:)`), as with UIKit's.
///
/// Stands in for UIKit's `UITableViewController`. Its own answers are UIKit's defaults: one section, no rows, no
/// titles, the table's row height, every row selectable.
@preconcurrency @MainActor
open class UITableViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    private let style: UITableView.Style
    private var table: UITableView?

    /// The table, made (in the style given) when the view loads unless one is set. Stands in for
    /// `UITableViewController.tableView`.
    open var tableView: UITableView! {
        get {
            if table == nil { loadViewIfNeeded() }
            return table
        }
        set {
            table = newValue
            newValue?.dataSource = self
            newValue?.delegate = self
            if isViewLoaded, let newValue { view = newValue }
        }
    }

    /// Whether a selected row is deselected each time the view appears. Stands in for
    /// `UITableViewController.clearsSelectionOnViewWillAppear`.
    open var clearsSelectionOnViewWillAppear = true

    /// Stands in for `UITableViewController.init(style:)`.
    public init(style: UITableView.Style) {
        self.style = style
        super.init(nibName: nil, bundle: nil)
    }

    /// Stands in for `UITableViewController.init(nibName:bundle:)`: a plain table.
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        style = .plain
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    /// Controllers are never decoded from storyboards here. Stands in for `UITableViewController.init?(coder:)`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// The table is the view.
    open override func loadView() {
        let table = self.table ?? UITableView(frame: UIScreen.main.bounds, style: style)
        tableView = table
        view = table
    }

    /// Deselects the selected rows first when `clearsSelectionOnViewWillAppear`.
    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if clearsSelectionOnViewWillAppear, let selected = table?.indexPathsForSelectedRows {
            for indexPath in selected { table?.deselectRow(at: indexPath, animated: animated) }
        }
    }

    // MARK: Data source

    open func numberOfSections(in tableView: UITableView) -> Int { 1 }
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(style: .default, reuseIdentifier: nil)
    }
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    open func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }

    // MARK: Delegate

    open func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { tableView.rowHeight }
    open func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    open func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
}
