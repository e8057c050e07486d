import Foundation
import OpenExtensionUI
import OpenImageIO
import OpenItemProvider
import Testing

/// A cell class a table makes itself, as apps register theirs: it overrides the designated initializer.
private final class DestinationCell: UITableViewCell {
    let badge = UILabel()
    private(set) var reused = 0

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: .subtitle, reuseIdentifier: reuseIdentifier)
        contentView.addSubview(badge)
    }

    required init?(coder: NSCoder) { fatalError("not from storyboards") }

    override func prepareForReuse() {
        super.prepareForReuse()
        reused += 1
    }
}

/// A data source and delegate that write down what the table asks and tells, in order.
@MainActor
private final class Destinations: NSObject, UITableViewDataSource, UITableViewDelegate {
    var names = (1...40).map { "Board \($0)" }
    var sections = 1
    var asked: [String] = []
    var refuse: IndexPath?

    func numberOfSections(in tableView: UITableView) -> Int {
        asked.append("sections")
        return sections
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        asked.append("rows \(section)")
        return names.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        asked.append("cell \(indexPath.section).\(indexPath.row)")
        let cell = tableView.dequeueReusableCell(withIdentifier: "destination", for: indexPath)
        cell.textLabel?.text = names[indexPath.row]
        return cell
    }

    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        indexPath.row == 0 ? 88 : UITableView.automaticDimension
    }

    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        asked.append("display \(indexPath.section).\(indexPath.row)")
    }

    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        indexPath == refuse ? nil : indexPath
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        asked.append("select \(indexPath.row)")
    }

    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {
        asked.append("deselect \(indexPath.row)")
    }
}

/// A sheet built in code, as apps that outgrow the compose sheet build theirs: a table of destinations and a
/// navigation bar with Cancel and Post.
@MainActor
private final class BoardSheet: UIViewController {
    let table = UITableView(frame: CGRect(x: 0, y: 0, width: 390, height: 220), style: .plain)
    let destinations = Destinations()
    var posted: String?

    override func viewDidLoad() {
        super.viewDidLoad()
        table.register(DestinationCell.self, forCellReuseIdentifier: "destination")
        table.dataSource = destinations
        table.delegate = destinations
        view.addSubview(table)
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .cancel, primaryAction: UIAction { [unowned self] _ in
            extensionContext?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
        })
        navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Post", primaryAction: UIAction { [unowned self] _ in
            posted = table.indexPathForSelectedRow.map { destinations.names[$0.row] }
            extensionContext?.completeRequest(returningItems: [])
        })
    }
}

/// A controller that writes down its life cycle.
@MainActor
private final class Step: UIViewController {
    let name: String
    let log: Log
    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
        super.init(nibName: nil, bundle: nil)
    }
    required init?(coder: NSCoder) { nil }
    override func viewDidLoad() { log.calls.append("\(name) viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { log.calls.append("\(name) viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { log.calls.append("\(name) viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { log.calls.append("\(name) viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { log.calls.append("\(name) viewDidDisappear") }
    override func willMove(toParent parent: UIViewController?) { log.calls.append("\(name) willMove(\(parent == nil ? "nil" : "parent"))") }
    override func didMove(toParent parent: UIViewController?) { log.calls.append("\(name) didMove(\(parent == nil ? "nil" : "parent"))") }
}

@MainActor
private final class Log {
    var calls: [String] = []
}

/// What the scripted user tapped is asserted through the sheets' own records: the tap observer is the process's one,
/// and the scripted-user suite's compose sheets tap through it at the same time (the compatibility suite checks the
/// taps a run reports).
@Suite("Tables, navigation and sheets built in code")
@MainActor
struct TablesAndNavigationTests {
    private func context() -> NSExtensionContext {
        NSExtensionContext(inputItems: [NSExtensionItem()])
    }

    @Test("IndexPath's UIKit members name the section and the row")
    func indexPaths() {
        var path = IndexPath(row: 3, section: 1)
        #expect(path.section == 1 && path.row == 3 && Array(path) == [1, 3])
        path.row = 4
        #expect(path == IndexPath(row: 4, section: 1))
    }

    @Test("a table asks nothing until it is on screen, then the counts, then a cell for each row that fits its height, registered class included")
    func asksForVisibleRows() throws {
        let sheet = BoardSheet()
        _ = sheet.view
        sheet.table.layoutIfNeeded()
        #expect(sheet.destinations.asked.isEmpty, "off screen, a table asks nothing")
        ExtensionPresenter.present(sheet, with: context())
        // 220 points: the first row is 88, the others 44 (automatic) — rows 0 to 3 fit, the fourth only partly.
        #expect(sheet.destinations.asked == ["sections", "rows 0"] + (0...3).flatMap { ["cell 0.\($0)", "display 0.\($0)"] })
        #expect(sheet.table.indexPathsForVisibleRows == (0...3).map { IndexPath(row: $0, section: 0) })
        let cells = sheet.table.visibleCells
        #expect(cells.allSatisfy { $0 is DestinationCell && $0.superview === sheet.table && $0.detailTextLabel != nil })
        #expect(sheet.table.cellForRow(at: IndexPath(row: 2, section: 0))?.textLabel?.text == "Board 3")
        #expect(sheet.table.cellForRow(at: IndexPath(row: 30, section: 0)) == nil)
        #expect(sheet.table.numberOfSections == 1 && sheet.table.numberOfRows(inSection: 0) == 40 && sheet.table.numberOfRows(inSection: 1) == 0)
        #expect(cells.map(\.frame.minY) == [0, 88, 132, 176] && sheet.table.contentSize.height == 220)
        #expect(sheet.table.dequeueReusableCell(withIdentifier: "unknown") == nil)
    }

    @Test("reloading asks again on the main queue's next turn, and hands the cells out again after prepareForReuse")
    func reloadReusesCells() async {
        let sheet = BoardSheet()
        ExtensionPresenter.present(sheet, with: context())
        let first = sheet.table.visibleCells
        sheet.destinations.asked = []
        sheet.destinations.names = ["Only"]
        sheet.table.reloadData()
        #expect(sheet.destinations.asked.isEmpty, "a reload is laid out later, as UIKit lays it out")
        await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
        #expect(sheet.destinations.asked == ["sections", "rows 0", "cell 0.0", "display 0.0"])
        let cell = try? #require(sheet.table.visibleCells.first as? DestinationCell)
        #expect(cell?.textLabel?.text == "Only" && cell?.reused == 1 && first.contains { $0 === cell })
    }

    @Test("a person's choice of row goes through the delegate; selecting in code does not")
    func selection() async {
        let sheet = BoardSheet()
        sheet.destinations.refuse = IndexPath(row: 0, section: 0)
        ExtensionPresenter.present(sheet, with: context())
        sheet.table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        #expect(sheet.table.indexPathForSelectedRow == IndexPath(row: 1, section: 0) && sheet.table.visibleCells[1].isSelected)
        #expect(!sheet.destinations.asked.contains { $0.hasPrefix("select") })
        sheet.table.deselectRow(at: IndexPath(row: 1, section: 0), animated: false)
        #expect(sheet.table.indexPathForSelectedRow == nil && !sheet.table.visibleCells[1].isSelected)
    }

    @Test("the scripted user picks the first row of an unchosen table, then taps Post in the navigation bar")
    func userPicksAndPosts() async {
        let context = context()
        let sheet = BoardSheet()
        ExtensionPresenter.present(UINavigationController(rootViewController: sheet), with: context, user: .post)
        guard case .completed = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(sheet.posted == "Board 1" && sheet.destinations.asked.contains("select 0"))
    }

    @Test("a row the delegate refuses stays unchosen, and the user picks once and posts anyway")
    func refusedRow() async {
        let context = context()
        let sheet = BoardSheet()
        sheet.destinations.refuse = IndexPath(row: 0, section: 0)
        ExtensionPresenter.present(UINavigationController(rootViewController: sheet), with: context, user: .post)
        guard case .completed = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(sheet.posted == nil && !sheet.destinations.asked.contains { $0.hasPrefix("select") })
    }

    @Test("a navigation controller held as a child: the user picks in its top controller's table and taps its Post item")
    func heldNavigation() async {
        final class Holder: UIViewController {
            let sheet = BoardSheet()
            override func viewDidLoad() {
                super.viewDidLoad()
                let navigation = UINavigationController(rootViewController: sheet)
                addChild(navigation)
                view.addSubview(navigation.view)
                navigation.didMove(toParent: self)
            }
        }
        let context = context()
        let holder = Holder()
        ExtensionPresenter.present(holder, with: context, user: .post)
        guard case .completed = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(holder.sheet.posted == "Board 1" && holder.sheet.destinations.asked.contains("select 0"))
    }

    @Test("cancel taps the Cancel system item and chooses no row")
    func cancelItem() async {
        let context = context()
        let sheet = BoardSheet()
        ExtensionPresenter.present(UINavigationController(rootViewController: sheet), with: context, user: .cancel)
        guard case .cancelled = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(sheet.posted == nil && !sheet.destinations.asked.contains { $0.hasPrefix("select") })
    }

    @Test("items on a principal's own navigation item show in no bar: the user taps a button they can see instead, as on a device",
          arguments: [false, true])
    func itemsShownNowhere(hiddenBar: Bool) async {
        final class BareSheet: UIViewController {
            var tapped: [String] = []
            override func viewDidLoad() {
                super.viewDidLoad()
                navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .done, primaryAction: UIAction { [unowned self] _ in
                    tapped.append("bar item")
                    extensionContext?.completeRequest(returningItems: [])
                })
                let send = UIButton(type: .system)
                send.setTitle("Send", for: .normal)
                send.addAction(UIAction { [unowned self] _ in
                    tapped.append("button")
                    extensionContext?.completeRequest(returningItems: [])
                }, for: .touchUpInside)
                view.addSubview(send)
            }
        }
        let context = context()
        let sheet = BareSheet()
        // Bare, or in a navigation controller whose bar is hidden: either way no bar shows the Done item.
        let principal: UIViewController = hiddenBar ? UINavigationController(rootViewController: sheet) : sheet
        (principal as? UINavigationController)?.setNavigationBarHidden(true, animated: false)
        ExtensionPresenter.present(principal, with: context, user: .post)
        guard case .completed = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(sheet.tapped == ["button"])
    }

    @Test("a button titled Send is tapped with a touch's events; a disabled one is not")
    func userTapsButtons() async {
        final class ButtonSheet: UIViewController {
            var events: [String] = []
            override func viewDidLoad() {
                super.viewDidLoad()
                let disabled = UIButton(type: .system)
                disabled.setTitle("Send", for: .normal)
                disabled.isEnabled = false
                disabled.addAction(UIAction { [unowned self] _ in events.append("disabled") }, for: .touchUpInside)
                let send = UIButton(type: .system)
                send.setTitle("SEND", for: .normal)
                send.addAction(UIAction { [unowned self] _ in events.append("down") }, for: .touchDown)
                send.addAction(UIAction { [unowned self] _ in
                    events.append("up")
                    extensionContext?.completeRequest(returningItems: [])
                }, for: .touchUpInside)
                view.addSubview(UIStackView(arrangedSubviews: [UILabel(), disabled, send]))
            }
        }
        let context = context()
        let sheet = ButtonSheet()
        ExtensionPresenter.present(sheet, with: context, user: .post)
        guard case .completed = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(sheet.events == ["down", "up"])
    }

    @Test("a navigation controller pushes and pops with the life-cycle calls in order, and its children share the context")
    func navigation() {
        let log = Log()
        let root = Step("root", log: log), detail = Step("detail", log: log)
        let navigation = UINavigationController(rootViewController: root)
        #expect(log.calls == ["root willMove(parent)", "root didMove(parent)"])
        let context = context()
        ExtensionPresenter.present(navigation, with: context)
        #expect(log.calls.suffix(3) == ["root viewDidLoad", "root viewWillAppear", "root viewDidAppear"])
        #expect(root.extensionContext === context && root.navigationController === navigation && root.view.superview === navigation.view)
        log.calls = []
        navigation.pushViewController(detail, animated: true)
        #expect(log.calls == ["detail willMove(parent)", "detail viewDidLoad", "root viewWillDisappear", "detail viewWillAppear",
                              "root viewDidDisappear", "detail viewDidAppear", "detail didMove(parent)"])
        #expect(navigation.viewControllers == [root, detail] && navigation.topViewController === detail && detail.extensionContext === context)
        #expect(root.view.superview == nil && detail.view.superview === navigation.view)
        log.calls = []
        #expect(navigation.popViewController(animated: true) === detail)
        #expect(log.calls == ["detail willMove(nil)", "detail viewWillDisappear", "root viewWillAppear", "detail viewDidDisappear",
                              "root viewDidAppear", "detail didMove(nil)"])
        #expect(navigation.popViewController(animated: true) == nil && navigation.viewControllers == [root])
        #expect(detail.navigationController == nil && detail.extensionContext == nil)
    }

    @Test("the navigation item takes the controller's title; bar items take their action's title")
    func navigationItems() {
        let controller = UIViewController()
        controller.title = "Save to Boards"
        #expect(controller.navigationItem.title == "Save to Boards")
        controller.title = "Boards"
        #expect(controller.navigationItem.title == "Boards")
        let item = UIBarButtonItem(primaryAction: UIAction(title: "Post") { _ in })
        #expect(item.title == "Post" && item.style == .plain)
        controller.navigationItem.rightBarButtonItems = [item, UIBarButtonItem(systemItem: .done)]
        #expect(controller.navigationItem.rightBarButtonItem === item && controller.navigationItem.rightBarButtonItems?.last?.style == .done)
        let menu = UIMenu(title: "More", children: [UIAction(title: "Copy") { _ in }])
        #expect(menu.children.map(\.title) == ["Copy"])
    }
}

/// A destination picker written as a table view controller, as read-later and bookmark apps write theirs: the
/// controller is the table's data source and delegate, its answers overrides; choosing a folder posts the share.
final class FolderPicker: UITableViewController {
    let folders = ["Inbox", "Reading", "Archive"]
    var asked: [String] = []
    var chosen: String?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Save to"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Folder")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        asked.append("rows \(section)")
        return folders.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        asked.append("cell \(indexPath.row)")
        let cell = tableView.dequeueReusableCell(withIdentifier: "Folder", for: indexPath)
        cell.textLabel?.text = folders[indexPath.row]
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        chosen = folders[indexPath.row]
        extensionContext?.completeRequest(returningItems: nil, completionHandler: nil)
    }
}

@Suite("Table view controllers")
@MainActor
struct TableViewControllerTests {
    @Test("the controller's view is its table, which asks the controller's overrides for its rows; a plain table with UIKit's defaults otherwise")
    func asksTheController() {
        let picker = FolderPicker()
        #expect(picker.view === picker.tableView && picker.tableView.style == .plain)
        #expect(picker.tableView.dataSource === picker && picker.tableView.delegate === picker)
        ExtensionPresenter.present(picker, with: NSExtensionContext(inputItems: [NSExtensionItem()]))
        #expect(picker.asked == ["rows 0", "cell 0", "cell 1", "cell 2"])
        #expect(picker.tableView.visibleCells.map { $0.textLabel?.text } == ["Inbox", "Reading", "Archive"])
        let grouped = UITableViewController(style: .insetGrouped)
        #expect(grouped.tableView.style == .insetGrouped && grouped.numberOfSections(in: grouped.tableView) == 1)
        #expect(grouped.tableView(grouped.tableView, numberOfRowsInSection: 0) == 0)
    }

    @Test("the scripted user picks the first folder, and the controller's didSelectRowAt override ends the request")
    func userChoosesAFolder() async {
        let context = NSExtensionContext(inputItems: [NSExtensionItem()])
        let picker = FolderPicker()
        ExtensionPresenter.present(picker, with: context, user: .post)
        guard case .completed = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(picker.chosen == "Inbox")
    }

    @Test("a selected row is deselected when the view appears again, unless the controller keeps it")
    func clearsSelection() {
        let picker = FolderPicker()
        ExtensionPresenter.present(picker, with: NSExtensionContext(inputItems: [NSExtensionItem()]))
        picker.tableView.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        picker.viewWillAppear(false)
        #expect(picker.tableView.indexPathForSelectedRow == nil)
        picker.clearsSelectionOnViewWillAppear = false
        picker.tableView.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        picker.viewWillAppear(false)
        #expect(picker.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
    }
}
