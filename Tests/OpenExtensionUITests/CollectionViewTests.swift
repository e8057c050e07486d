import Foundation
import OpenExtensionUI
import OpenItemProvider
import Testing

/// A grid of destinations, as sheets that outgrow the compose sheet show recent chats or albums: a registered cell
/// class of its own, sizes from the flow layout's delegate, selection told to it.
@MainActor
private final class Grid: NSObject, UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    var counts = [7, 2]
    var asked: [String] = []
    var refuse: IndexPath?

    func numberOfSections(in collectionView: UICollectionView) -> Int {
        asked.append("sections")
        return counts.count
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        asked.append("items \(section)")
        return counts[section]
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        asked.append("cell \(indexPath.section).\(indexPath.item)")
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "chat", for: indexPath)
        (cell as? ChatCell)?.name.text = "Chat \(indexPath.item)"
        return cell
    }

    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        CGSize(width: 80, height: 100)
    }

    func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
        indexPath != refuse
    }

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        asked.append("select \(indexPath.section).\(indexPath.item)")
    }

    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {
        asked.append("deselect \(indexPath.section).\(indexPath.item)")
    }
}

@MainActor
private final class ChatCell: UICollectionViewCell {
    let name = UILabel()
    override init(frame: CGRect) {
        super.init(frame: frame)
        contentView.addSubview(name)
    }
    required init?(coder: NSCoder) { nil }
    override func prepareForReuse() { name.text = nil }
}

/// A sheet with the grid and a Send button.
@MainActor
private final class GridSheet: UIViewController {
    let layout = UICollectionViewFlowLayout()
    lazy var collection = UICollectionView(frame: CGRect(x: 0, y: 0, width: 390, height: 220), collectionViewLayout: layout)
    let grid = Grid()
    var sent: [IndexPath]?

    override func viewDidLoad() {
        super.viewDidLoad()
        layout.minimumInteritemSpacing = 10
        layout.minimumLineSpacing = 20
        layout.sectionInset = UIEdgeInsets(top: 0, left: 15, bottom: 0, right: 15)
        collection.register(ChatCell.self, forCellWithReuseIdentifier: "chat")
        collection.dataSource = grid
        collection.delegate = grid
        let send = UIButton(type: .system)
        send.setTitle("Send", for: .normal)
        send.addAction(UIAction { [unowned self] _ in
            sent = collection.indexPathsForSelectedItems
            extensionContext?.completeRequest(returningItems: [])
        }, for: .touchUpInside)
        view.addSubview(collection)
        view.addSubview(send)
    }
}

@Suite("Collection views built in code")
@MainActor
struct CollectionViewTests {
    @Test("IndexPath's item and row are the same second index; the scroll positions have UIKit's raw values")
    func indexPaths() {
        let path = IndexPath(item: 3, section: 1)
        #expect(path.item == 3 && path.row == 3 && path.section == 1 && path == IndexPath(row: 3, section: 1))
        #expect(UICollectionView.ScrollPosition.centeredVertically.rawValue == 2 && UICollectionView.ScrollPosition.right.rawValue == 32)
        #expect(UICollectionView.ScrollDirection.horizontal.rawValue == 1)
    }

    @Test("on screen, the data source is asked for the counts, then a cell for each item the flow layout places in view, in lines")
    func asksForWhatShows() async {
        let sheet = GridSheet()
        ExtensionPresenter.present(sheet, with: NSExtensionContext(inputItems: [NSExtensionItem()]))
        // 390 points across less 15 a side holds four 80-point items with 10 between; 220 down holds two lines of
        // 100 with 20 between: the first section's seven items show, the second's lie below.
        #expect(sheet.grid.asked.prefix(3) == ["sections", "items 0", "items 1"])
        #expect(sheet.collection.indexPathsForVisibleItems == (0..<7).map { IndexPath(item: $0, section: 0) })
        #expect(sheet.collection.visibleCells.map(\.frame.origin) == [
            CGPoint(x: 15, y: 0), CGPoint(x: 105, y: 0), CGPoint(x: 195, y: 0), CGPoint(x: 285, y: 0),
            CGPoint(x: 15, y: 120), CGPoint(x: 105, y: 120), CGPoint(x: 195, y: 120),
        ])
        #expect((sheet.collection.cellForItem(at: IndexPath(item: 6, section: 0)) as? ChatCell)?.name.text == "Chat 6")
        #expect(sheet.collection.cellForItem(at: IndexPath(item: 0, section: 1)) == nil)
        // Sections follow each other with their insets only, as a flow layout's do.
        #expect(sheet.collection.contentSize.height == CGFloat(100 + 20 + 100 + 100))
    }

    @Test("a reload asks again, reusing the cells it had, prepared for reuse; batch updates reload too")
    func reloadsAndReuses() async {
        let sheet = GridSheet()
        ExtensionPresenter.present(sheet, with: NSExtensionContext(inputItems: [NSExtensionItem()]))
        let made = Set(sheet.collection.visibleCells.map(ObjectIdentifier.init))
        sheet.grid.counts = [3, 0]
        sheet.grid.asked = []
        sheet.collection.reloadData()
        await Task.yield()
        sheet.collection.layoutIfNeeded()
        #expect(sheet.grid.asked == ["sections", "items 0", "items 1", "cell 0.0", "cell 0.1", "cell 0.2"])
        #expect(Set(sheet.collection.visibleCells.map(ObjectIdentifier.init)).isSubset(of: made) && sheet.collection.numberOfItems(inSection: 0) == 3)
        #expect(sheet.collection.visibleCells.compactMap { ($0 as? ChatCell)?.name.text } == ["Chat 0", "Chat 1", "Chat 2"])
        sheet.collection.performBatchUpdates({ sheet.grid.counts = [1, 1] })
        sheet.collection.layoutIfNeeded()
        #expect(sheet.collection.numberOfItems(inSection: 1) == 1 && sheet.collection.indexPathsForVisibleItems.count == 2)
    }

    @Test("a person's tap asks the delegate, deselects the other item and selects; selecting in code tells no delegate")
    func selection() async {
        let sheet = GridSheet()
        ExtensionPresenter.present(sheet, with: NSExtensionContext(inputItems: [NSExtensionItem()]))
        sheet.collection.selectItem(at: IndexPath(item: 1, section: 0), animated: false, scrollPosition: [])
        #expect(sheet.collection.indexPathsForSelectedItems == [IndexPath(item: 1, section: 0)] && !sheet.grid.asked.contains { $0.hasPrefix("select") })
        #expect(sheet.collection.cellForItem(at: IndexPath(item: 1, section: 0))?.isSelected == true)
        sheet.collection.deselectItem(at: IndexPath(item: 1, section: 0), animated: false)
        #expect(sheet.collection.indexPathsForSelectedItems == nil)
    }

    @Test("the scripted user picks the first item of an unchosen collection, then taps Send", arguments: [false, true])
    func userPicksAndSends(refused: Bool) async {
        let context = NSExtensionContext(inputItems: [NSExtensionItem()])
        let sheet = GridSheet()
        if refused { sheet.grid.refuse = IndexPath(item: 0, section: 0) }
        ExtensionPresenter.present(sheet, with: context, user: .post)
        guard case .completed = await context.requestEnded() else { Issue.record("\(String(describing: context.outcome))"); return }
        #expect(sheet.sent == (refused ? nil : [IndexPath(item: 0, section: 0)]))
        #expect(sheet.grid.asked.contains("select 0.0") == !refused)
    }

    @Test("a horizontal flow lays lines down the height and places them across, as far as the width shows")
    func horizontal() async {
        let sheet = GridSheet()
        sheet.layout.scrollDirection = .horizontal
        ExtensionPresenter.present(sheet, with: NSExtensionContext(inputItems: [NSExtensionItem()]))
        // 220 points down holds two 100-point items with 10 between: columns of two, 20 apart, from the inset's 15.
        let origins = sheet.collection.visibleCells.map(\.frame.origin)
        #expect(origins.prefix(3) == [CGPoint(x: 15, y: 0), CGPoint(x: 15, y: 110), CGPoint(x: 115, y: 0)], "\(origins)")
    }
}
