import SharingShim

// A sheet built in code, as apps that outgrow the compose sheet build theirs: Pinterest's share extension, shown
// in the WWDC 2014 keynote, has the person pick a board before posting (bdaily.co.uk, "Share Extensions - A
// Novel Feature In iOS 8", 2014-08-04), and custom-UI share sheets put Cancel and Post in a navigation bar over a
// table view of the app's sections (a public share extension's `ShareViewController: UIViewController` with an
// `UITableViewDataSource` and a Done bar button that completes the request). Issue 39 counted what six public
// custom-UI sheets need: image views and labels, constraints and `addSubview`, stack views, table views and their
// cells, navigation controllers and anchors.
//
// The principal holds a navigation controller as a child; its root shows the shared photo or page above a table of
// boards (cells of a registered class) with Cancel and Post in the bar; Post is enabled through Combine once a board
// is chosen, as view models written since iOS 13 do. Post saves the chosen board, the page's URL or the photo's file
// name, and the photo itself into the app group, and completes.
class ShareViewController: UIViewController {
    static let appGroup = "group.org.opensharing.compatibility"

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let picker = BoardPickerViewController()
        picker.context = extensionContext
        let navigation = UINavigationController(rootViewController: picker)
        addChild(navigation)
        view.addSubview(navigation.view)
        navigation.view.translatesAutoresizingMaskIntoConstraints = false
        NSLayoutConstraint.activate([
            navigation.view.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            navigation.view.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            navigation.view.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            navigation.view.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        navigation.didMove(toParent: self)
    }
}

/// A row of the boards table: the board's name, and how many pins it holds beneath.
final class BoardCell: UITableViewCell {
    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: .subtitle, reuseIdentifier: reuseIdentifier)
        textLabel?.font = .preferredFont(forTextStyle: .body)
        detailTextLabel?.textColor = .secondaryLabel
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        accessoryType = .none
    }
}

final class BoardPickerViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    static let boards = [("Recipes", 112), ("Reading list", 48), ("Trips", 9), ("Home", 230), ("Gifts", 17)]

    var context: NSExtensionContext?
    /// What the table was asked, in order: kept for the process's last words and for tests.
    private(set) var asked: [String] = []
    private let tableView = UITableView(frame: .zero, style: .insetGrouped)
    private let preview = UIImageView()
    private let titleLabel = UILabel()
    @Published private var chosen: Int?
    private var cancellables = Set<AnyCancellable>()
    private var sharedURL: URL?
    private var sharedImage: URL?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Save to Board"
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .cancel, primaryAction: UIAction { [weak self] _ in
            self?.context?.cancelRequest(withError: NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError))
        })
        let post = UIBarButtonItem(title: "Post", primaryAction: UIAction { [weak self] _ in self?.post() })
        post.style = .done
        post.isEnabled = false
        navigationItem.rightBarButtonItem = post
        $chosen
            .map { $0 != nil }
            .removeDuplicates()
            .receive(on: DispatchQueue.main)
            .sink { [weak post] enabled in post?.isEnabled = enabled }
            .store(in: &cancellables)

        preview.contentMode = .scaleAspectFill
        preview.clipsToBounds = true
        preview.layer.cornerRadius = 8
        preview.accessibilityLabel = "Shared item"
        titleLabel.font = .preferredFont(forTextStyle: .headline)
        titleLabel.numberOfLines = 2
        let header = UIStackView(arrangedSubviews: [preview, titleLabel])
        header.axis = .horizontal
        header.spacing = 12
        header.alignment = .center
        header.translatesAutoresizingMaskIntoConstraints = false

        tableView.register(BoardCell.self, forCellReuseIdentifier: "board")
        tableView.dataSource = self
        tableView.delegate = self
        tableView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(header)
        view.addSubview(tableView)
        NSLayoutConstraint.activate([
            header.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 16),
            header.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            header.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            preview.widthAnchor.constraint(equalToConstant: 64),
            preview.heightAnchor.constraint(equalTo: preview.widthAnchor),
            tableView.topAnchor.constraint(equalTo: header.bottomAnchor, constant: 8),
            tableView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            tableView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            tableView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        loadShare()
    }

    /// The first web URL or image of the share, loaded as the host gives it.
    private func loadShare() {
        let providers = (context?.inputItems as? [NSExtensionItem])?.flatMap { $0.attachments ?? [] } ?? []
        if let page = providers.first(where: { $0.hasItemConformingToTypeIdentifier(UTType.url.identifier) }) {
            page.loadItem(forTypeIdentifier: UTType.url.identifier, options: nil) { item, _ in
                DispatchQueue.main.async {
                    self.sharedURL = item as? URL
                    self.titleLabel.text = self.sharedURL?.host
                }
            }
        } else if let photo = providers.first(where: { $0.hasItemConformingToTypeIdentifier(UTType.image.identifier) }) {
            photo.loadFileRepresentation(forTypeIdentifier: UTType.image.identifier) { file, _ in
                // The file is the host's to delete when this returns: copy it into the group now.
                let kept = file.flatMap { Self.keep($0) }
                DispatchQueue.main.async {
                    self.sharedImage = kept
                    self.preview.image = kept.flatMap { UIImage(contentsOfFile: $0.path) }
                    self.titleLabel.text = kept?.lastPathComponent
                }
            }
        }
    }

    private static func keep(_ file: URL) -> URL? {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: ShareViewController.appGroup) else { return nil }
        let kept = container.appendingPathComponent("pending-" + file.lastPathComponent)
        try? FileManager.default.removeItem(at: kept)
        return (try? FileManager.default.copyItem(at: file, to: kept)) == nil ? nil : kept
    }

    private func post() {
        guard let chosen, let defaults = UserDefaults(suiteName: ShareViewController.appGroup) else { return }
        var pin = ["board": Self.boards[chosen].0]
        pin["url"] = sharedURL?.absoluteString
        pin["image"] = sharedImage?.lastPathComponent
        defaults.set([pin], forKey: "pendingPins")
        print("posted to \(Self.boards[chosen].0); the table was asked: \(asked.joined(separator: ", "))")
        context?.completeRequest(returningItems: [], completionHandler: nil)
    }

    func numberOfSections(in tableView: UITableView) -> Int {
        asked.append("sections")
        return 1
    }

    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        "Boards"
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        asked.append("rows")
        return Self.boards.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        asked.append("cell \(indexPath.row)")
        let cell = tableView.dequeueReusableCell(withIdentifier: "board", for: indexPath)
        let (name, pins) = Self.boards[indexPath.row]
        cell.textLabel?.text = name
        cell.detailTextLabel?.text = "\(pins) pins"
        cell.accessoryType = indexPath.row == chosen ? .checkmark : .none
        return cell
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        asked.append("select \(indexPath.row)")
        chosen = indexPath.row
        tableView.cellForRow(at: indexPath)?.accessoryType = .checkmark
    }
}
