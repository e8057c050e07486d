public import Foundation
public import OpenItemProvider
import SharingSystem

/// The entry point of an extension's executable: there is no Objective-C runtime to find
/// `NSExtensionPrincipalClass` by name, so the program gives its principal class's initializer, and the
/// runtime checks that the bundle's Info.plist names that class.
///
/// ```swift
/// // main.swift of the Uppercase extension
/// ExtensionProcess.run(UppercaseRequestHandler.init)
/// ```
///
/// The runtime connects to the host (descriptor 3, given by the host), makes the context with the host's
/// items (their providers load from the host when asked), creates the principal and calls
/// `beginRequest(with:)` on the main thread, and runs the main queue. When the extension ends the request,
/// its outcome and returned items go to the host, and the process exits once the main queue has run what
/// was queued before. If the host goes away, the process ends.
public enum ExtensionProcess {
    /// Runs the extension whose principal `makePrincipal` creates. Never returns.
    public static func run<Principal: NSObject & NSExtensionRequestHandling>(_ makePrincipal: @escaping @Sendable () -> Principal) -> Never {
        let named = String(reflecting: Principal.self)
        let declared = (Bundle.main.infoDictionary?["NSExtension"] as? [String: Any])?["NSExtensionPrincipalClass"] as? String
        guard let declared, Self.names(declared, named) else {
            fail("the Info.plist beside \(CommandLine.arguments.first ?? "the executable") names NSExtensionPrincipalClass "
                 + "\(declared.map { "\"\($0)\"" } ?? "nowhere"), but the program runs \(named)")
        }
        let connection: HostConnection
        let request: [WireItem]
        do {
            connection = try HostConnection.connect()
            request = try connection.awaitRequest()
        } catch {
            fail("cannot start the request: \(error)")
        }
        let context = NSExtensionContext(inputItems: connection.inputItems(request))
        context.openURLHandler = { url in connection.open(url) }
        connection.startReading()
        Task.detached {
            let outcome = await context.requestEnded()
            connection.send(outcome)
            // What the extension queued on the main queue before it ended the request still runs; then exit.
            DispatchQueue.main.async { exit(0) }
        }
        DispatchQueue.main.async {
            makePrincipal().beginRequest(with: context)
        }
        dispatchMain()
    }

    /// Whether an Info.plist's principal class names the Swift type `named` ("Module.Type"): as written, or as
    /// Xcode's template spells it (`$(PRODUCT_MODULE_NAME).Type`), or unqualified.
    static func names(_ declared: String, _ named: String) -> Bool {
        let typeName = named.split(separator: ".").last.map(String.init) ?? named
        return declared == named || declared == typeName || declared == "$(PRODUCT_MODULE_NAME).\(typeName)"
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("extension: \(message)\n".utf8))
        exit(78)
    }
}

/// The extension's end of the connection: its loads wait here for the host's answers, each ending once.
final class HostConnection: @unchecked Sendable {
    private let channel: PacketChannel
    private let pending = Locked<Pending>(Pending())

    private struct Pending {
        var nextIdentifier: UInt32 = 1
        var loads: [UInt32: @Sendable (LoadResult, [OpenFile]) -> Void] = [:]
        var progresses: [UInt32: Progress] = [:]
        var openings: [UInt32: @Sendable (Bool) -> Void] = [:]
        /// The streams being drained, by the load they answered, until the host says how each ended.
        var streams: [UInt32: StreamEnd] = [:]
        var closed = false
    }

    private init(channel: PacketChannel) {
        self.channel = channel
    }

    /// Says the extension is ready on descriptor 3, handing the host one end of a socket pair this process
    /// makes: the host checks with SO_PEERCRED that its maker is the process it started, and the request
    /// goes on over that pair.
    static func connect() throws -> HostConnection {
        let bootstrap = PacketChannel(adopting: 3, name: "the host")
        let (channel, hostEnd) = try PacketChannel.pair(name: "the host")
        try bootstrap.send(RuntimeMessage.ready(process: Processes.current).encoded().bytes, channels: [hostEnd])
        return HostConnection(channel: channel)
    }

    /// The first message: the request.
    func awaitRequest() throws -> [WireItem] {
        guard let packet = try channel.receive(capacity: RuntimeMessage.maximumPacket + 1) else {
            throw ProtocolViolation("the host closed the connection before sending the request")
        }
        guard case .request(let items) = try RuntimeMessage.decode(packet.bytes, descriptors: packet.files.count) else {
            throw ProtocolViolation("the host's first message was not the request")
        }
        return items
    }

    /// Reads the host's answers on a thread of the platform layer's, until the host goes away; then the
    /// process ends, as an extension does when its host dies.
    func startReading() {
        BlockingThreads.submit { [self] in
            while true {
                guard let packet = try? channel.receive(capacity: RuntimeMessage.maximumPacket + 1) else { break }
                guard !packet.truncated, let message = try? RuntimeMessage.decode(packet.bytes, descriptors: packet.files.count) else { break }
                switch message {
                case .loaded(let id, let result):
                    let handler = pending.withLock { state in
                        state.progresses[id] = nil
                        return state.loads.removeValue(forKey: id)
                    }
                    if case .stream(let name) = result, let handler, let pipe = packet.files.first {
                        let end = StreamEnd()
                        pending.withLock { $0.streams[id] = end }
                        BlockingThreads.submit { Self.drain(pipe, named: name, end: end, into: handler) }
                    } else {
                        handler?(result, packet.files)
                    }
                case .streamEnded(let id, let bytes, let complete):
                    pending.withLock { $0.streams.removeValue(forKey: id) }?.tell((bytes, complete))
                case .progress(let id, let completed, let total):
                    // The host's units: the load's own progress follows them until its answer completes it.
                    if let progress = pending.withLock({ $0.progresses[id] }), total > 0 {
                        progress.totalUnitCount = total
                        progress.completedUnitCount = min(completed, total)
                    }
                case .openedURL(let id, let opened):
                    let handler = pending.withLock { $0.openings.removeValue(forKey: id) }
                    handler?(opened)
                case .timeWarning(let phase):
                    FileHandle.standardError.write(Data("extension: the host's \(phase) time budget ran out; the extension is about to be killed\n".utf8))
                default:
                    break
                }
            }
            endAll()
            exit(0)
        }
    }

    /// Ends every pending load and URL request with a disconnection error.
    private func endAll() {
        let (loads, openings, streams) = pending.withLock { state in
            state.closed = true
            defer { state.loads = [:]; state.openings = [:]; state.progresses = [:]; state.streams = [:] }
            return (Array(state.loads.values), Array(state.openings.values), Array(state.streams.values))
        }
        let gone = LoadResult.failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the host went away"))
        loads.forEach { $0(gone, []) }
        openings.forEach { $0(false) }
        streams.forEach { $0.tell(nil) }
    }

    /// Asks the host to load a representation; `handler` gets the answer once (or a failure if the host goes
    /// away). The returned progress cancels the load at the host.
    func load(attachment: UInt32, type: String, form: RepresentationForm,
              _ handler: @escaping @Sendable (LoadResult, [OpenFile]) -> Void) -> Progress {
        let progress = SynchronizedProgress(detachedTotal: 1)
        let id: UInt32? = pending.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextIdentifier
            state.nextIdentifier &+= 1
            state.loads[id] = { result, files in
                progress.completedUnitCount = progress.totalUnitCount
                handler(result, files)
            }
            state.progresses[id] = progress
            return id
        }
        // The answer never comes before this returns: the provider starts its loads on the caller's thread.
        guard let id else {
            BlockingThreads.submit {
                handler(.failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the host went away")), [])
            }
            return progress
        }
        progress.cancellationHandler = { [weak self] in
            guard let self, let handler = pending.withLock({ state in
                state.progresses[id] = nil
                return state.loads.removeValue(forKey: id)
            }) else { return }
            try? channel.send(RuntimeMessage.cancelLoad(id: id).encoded().bytes)
            handler(.failed(RemoteError(domain: NSCocoaErrorDomain, code: Int64(CocoaError.userCancelled.rawValue), message: "The load was cancelled.")), [])
        }
        do {
            try channel.send(RuntimeMessage.load(id: id, attachment: attachment, type: type, form: form).encoded().bytes)
        } catch {
            if let handler = pending.withLock({ state in
                state.progresses[id] = nil
                return state.loads.removeValue(forKey: id)
            }) {
                BlockingThreads.submit {
                    handler(.failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the host went away: \(error)")), [])
                }
            }
        }
        return progress
    }

    /// Asks the host to open a URL and waits for its answer.
    func open(_ url: URL) -> Bool {
        let answer = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let id: UInt32? = pending.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextIdentifier
            state.nextIdentifier &+= 1
            state.openings[id] = { opened in
                answer.withLock { $0 = opened }
                done.signal()
            }
            return id
        }
        guard let id, (try? channel.send(RuntimeMessage.openURL(id: id, url: url.absoluteString).encoded().bytes)) != nil else { return false }
        done.wait()
        return answer.withLock { $0 } ?? false
    }

    /// The input items, their providers registered with the host's types and forms, loading from the host.
    func inputItems(_ items: [WireItem]) -> [NSExtensionItem] {
        var index: UInt32 = 0
        return items.map { wire in
            let item = NSExtensionItem()
            item.attributedTitle = wire.title.map { NSAttributedString(string: $0) }
            item.attributedContentText = wire.contentText.map { NSAttributedString(string: $0) }
            item.attachments = wire.attachments.map { attachment in
                defer { index += 1 }
                return provider(for: attachment, index: index)
            }
            return item
        }
    }

    private func provider(for attachment: WireAttachment, index: UInt32) -> NSItemProvider {
        let provider = NSItemProvider()
        provider.suggestedName = attachment.suggestedName
        provider.loadersReturnAtOnce = true
        for representation in attachment.representations {
            let type = representation.type
            switch representation.form {
            case .data:
                provider.registerDataRepresentation(forTypeIdentifier: type, visibility: .all) { [self] completion in
                    load(attachment: index, type: type, form: RepresentationForm.data) { result, files in
                        do {
                            if let data = try Payloads.data(of: result, files: files) { return completion(data, nil) }
                            if case .failed(let remote) = result { return completion(nil, Payloads.nsError(remote)) }
                            completion(nil, Payloads.error(.unexpectedValueClassError, "the host answered a data load with \(result)"))
                        } catch {
                            completion(nil, Payloads.error(.itemUnavailableError, "\(error)"))
                        }
                    }
                }
            case .file, .fileInPlace:
                let form = representation.form
                let options: NSItemProviderFileOptions = form == .fileInPlace ? [.openInPlace] : []
                provider.registerFileRepresentation(forTypeIdentifier: type, fileOptions: options, visibility: .all) { [self] completion in
                    load(attachment: index, type: type, form: form) { result, files in
                        guard case .file(let name) = result, let file = files.first else {
                            if case .failed(let remote) = result { return completion(nil, false, Payloads.nsError(remote)) }
                            return completion(nil, false, Payloads.error(.unexpectedValueClassError, "the host answered a file load with \(result)"))
                        }
                        Self.withPath(of: file, named: name) { url in completion(url, false, nil) }
                    }
                }
            case .item:
                provider.registerItem(forTypeIdentifier: type) { [self] handler, _, _ in
                    nonisolated(unsafe) let completion = handler
                    _ = load(attachment: index, type: type, form: RepresentationForm.item) { result, files in
                        do {
                            switch try Payloads.item(of: result, files: files) {
                            case .success(let item): completion?(item, nil)
                            case .failure(let error): completion?(nil, error)
                            }
                        } catch {
                            completion?(nil, Payloads.error(.itemUnavailableError, "\(error)"))
                        }
                    }
                }
            }
        }
        return provider
    }

    /// Reads a stream the host answered a load with to its end, into a file of the extension's own (in its
    /// temporary directory, removed when `handler` returns), and answers with that file once the host says
    /// the stream ended whole; a stream cut short, or a host gone, fails the load instead.
    private static func drain(_ pipe: OpenFile, named name: String, end: StreamEnd,
                              into handler: @escaping @Sendable (LoadResult, [OpenFile]) -> Void) {
        let failed = { (why: String) in
            handler(.failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the stream \(name): \(why)")), [])
        }
        let directory: TemporaryDirectory
        let copy: URL
        let drained: Int64
        do {
            directory = try TemporaryDirectory(in: nil)
            copy = directory.url.appendingPathComponent(fileName(name))
            drained = try FileCopier.copyStream(from: pipe, to: copy)
        } catch {
            // The pipe closes when this returns, which ends the host's side of the stream.
            return failed("\(error)")
        }
        defer { directory.remove() }
        guard let said = end.wait() else { return failed("the host went away while sending it") }
        guard said.complete, said.bytes == UInt64(drained) else {
            return failed("cut short in the host after \(said.bytes) bytes (\(drained) arrived)")
        }
        do {
            handler(.file(name: name), [try OpenFile.reading(copy)])
        } catch {
            failed("\(error)")
        }
    }

    /// A name the host gave that is safe as one path component.
    private static func fileName(_ name: String) -> String {
        name.isEmpty || name == "." || name == ".." || name.contains("/") ? "file" : name
    }

    /// Hands `body` a path to a file the host passed as a descriptor: a link named as the host's file, to
    /// the descriptor's `/proc/self/fd` entry, so that the bytes are never copied to give the file a path.
    /// The link is removed, and the descriptor closed, when `body` returns.
    static func withPath(of file: OpenFile, named name: String, _ body: (URL) -> Void) {
        let target = URL(fileURLWithPath: "/proc/self/fd/\(file.descriptor)")
        guard (try? file.status())?.kind == .regular,
              let directory = try? FileSystem.createUniqueDirectory(in: FileManager.default.temporaryDirectory, prefix: "opensharing-load-")
        else { return body(target) }
        let link = directory.appendingPathComponent(fileName(name))
        if (try? FileSystem.createSymbolicLink(at: link, to: target.path)) != nil {
            body(link)
        } else {
            body(target)
        }
        try? FileSystem.removeTree(directory)
        withExtendedLifetime(file) {}
    }

    /// Sends how the request ended, with the returned items' payloads loaded now: the process ends soon.
    func send(_ outcome: NSExtensionContext.Outcome) {
        let message: RuntimeMessage
        var files: [OpenFile] = []
        switch outcome {
        case .completed(let returned):
            var items: [WireItem] = []
            for case let item as NSExtensionItem in returned {
                var attachments: [WireAttachment] = []
                for provider in item.attachments ?? [] {
                    var representations: [WireRepresentation] = []
                    for (type, registered) in provider.registeredForms {
                        let form = RepresentationForm(registered)
                        let (payload, carried) = Self.payload(of: provider, type: type, form: form)
                        representations.append(WireRepresentation(type: type, form: form, payload: payload))
                        files += carried
                    }
                    attachments.append(WireAttachment(suggestedName: provider.suggestedName, representations: representations))
                }
                items.append(WireItem(title: item.attributedTitle?.string, contentText: item.attributedContentText?.string, attachments: attachments))
            }
            message = .complete(items: items)
        case .cancelled(let error):
            let cocoa = error as NSError
            message = .cancel(RemoteError(domain: cocoa.domain, code: Int64(cocoa.code), message: cocoa.localizedDescription))
        }
        do {
            guard files.count <= PacketChannel.maximumDescriptors else {
                throw ProtocolViolation("the returned items need \(files.count) descriptors; at most \(PacketChannel.maximumDescriptors) travel with a completion")
            }
            let encoded = message.encoded()
            guard encoded.bytes.count <= RuntimeMessage.maximumPacket else {
                throw ProtocolViolation("the returned items take \(encoded.bytes.count) bytes; a completion holds at most \(RuntimeMessage.maximumPacket)")
            }
            try channel.send(encoded.bytes, files: files)
        } catch {
            ExtensionProcess.fail("cannot send the request's outcome to the host: \(error)")
        }
    }

    /// A returned representation's payload, loaded from the extension's own provider.
    private static func payload(of provider: NSItemProvider, type: String, form: RepresentationForm) -> (LoadResult, [OpenFile]) {
        let answer = Locked<(LoadResult, [OpenFile])?>(nil)
        let done = DispatchSemaphore(value: 0)
        let finish: @Sendable ((LoadResult, [OpenFile])) -> Void = { value in
            answer.withLock { $0 = value }
            done.signal()
        }
        switch form {
        case .data:
            provider.loadDataRepresentation(forTypeIdentifier: type) { data, error in
                guard let data else { return finish((Payloads.result(for: error, fallback: "no data"), [])) }
                finish((try? Payloads.result(for: data)) ?? (Payloads.result(for: nil, fallback: "cannot hand over \(data.count) bytes"), []))
            }
        case .file, .fileInPlace:
            provider.loadRegisteredFile(forTypeIdentifier: type) { url, error in
                guard let url, let file = try? OpenFile.reading(url, regularOnly: false) else {
                    return finish((Payloads.result(for: error, fallback: "no file"), []))
                }
                finish((.file(name: url.lastPathComponent), [file]))
            }
        case .item:
            provider.loadItem(forTypeIdentifier: type, options: nil) { item, error in
                guard error == nil else { return finish((Payloads.result(for: error, fallback: "no item"), [])) }
                finish((try? Payloads.result(for: item)) ?? (Payloads.result(for: nil, fallback: "cannot hand over the item"), []))
            }
        }
        done.wait()
        return answer.withLock { $0 }!
    }
}

/// How a stream that answered a load ended, as the host says (`nil` when the host went away first); the
/// thread draining the stream waits for it.
final class StreamEnd: @unchecked Sendable {
    private let said = DispatchSemaphore(value: 0)
    private var ending: (bytes: UInt64, complete: Bool)?

    func tell(_ ending: (bytes: UInt64, complete: Bool)?) {
        self.ending = ending
        said.signal()
    }

    func wait() -> (bytes: UInt64, complete: Bool)? {
        said.wait()
        return ending
    }
}
