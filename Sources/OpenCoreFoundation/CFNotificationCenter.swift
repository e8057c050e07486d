#if !canImport(Darwin)
public import Foundation

/// A notification center. Stands in for Core Foundation's `CFNotificationCenter`, as extensions use it: the
/// Darwin notify center, by which an extension tells its app that something arrived. A post reaches the
/// process's own observers of its name (on the main queue, as the system calls them on the main run loop) and,
/// in an extension run by OpenSharing, the host, which reports it (`posted com.example.newMessage`). As on
/// Apple's systems, the Darwin center carries a name only: the object and the user info are ignored.
public final class CFNotificationCenter: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [(observer: UnsafeRawPointer?, callback: CFNotificationCallback, name: String?)] = []

    fileprivate static let darwin = CFNotificationCenter()

    /// Told of each name posted to the Darwin center: the extension runtime sets it to tell the host. An
    /// OpenSharing addition, not Apple API.
    package nonisolated(unsafe) static var darwinPosts: (@Sendable (String) -> Void)?

    private init() {}

    fileprivate func add(_ observer: UnsafeRawPointer?, _ callback: @escaping CFNotificationCallback, _ name: String?) {
        lock.lock()
        defer { lock.unlock() }
        observers.append((observer, callback, name))
    }

    fileprivate func remove(_ observer: UnsafeRawPointer?, name: String?) {
        lock.lock()
        defer { lock.unlock() }
        observers.removeAll { $0.observer == observer && (name == nil || $0.name == name) }
    }

    fileprivate func post(_ name: String) {
        Self.darwinPosts?(name)
        lock.lock()
        let called = observers.filter { $0.name == nil || $0.name == name }
        lock.unlock()
        for (observer, callback, _) in called {
            nonisolated(unsafe) let (observer, callback) = (observer, callback)
            DispatchQueue.main.async {
                callback(self, observer.map { UnsafeMutableRawPointer(mutating: $0) }, CFNotificationName(name as CFString), nil, nil)
            }
        }
    }
}

/// A notification's name. Stands in for Core Foundation's `CFNotificationName`.
public struct CFNotificationName: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public var rawValue: CFString

    public init(_ rawValue: CFString) { self.rawValue = rawValue }

    public init(rawValue: CFString) { self.rawValue = rawValue }
}

/// What an observer is called with. Stands in for Core Foundation's `CFNotificationCallback` (a C function
/// pointer there; a closure that captures nothing converts to either).
public typealias CFNotificationCallback = (CFNotificationCenter?, UnsafeMutableRawPointer?, CFNotificationName?, UnsafeRawPointer?, CFDictionary?) -> Void

/// How an observer is told while its app is suspended. Stands in for Core Foundation's
/// `CFNotificationSuspensionBehavior`; an extension is never suspended here, so every observer is told at once.
public enum CFNotificationSuspensionBehavior: CFIndex, Sendable {
    case drop = 1
    case coalesce = 2
    case hold = 3
    case deliverImmediately = 4
}

/// The Darwin notify center. Stands in for Core Foundation's function.
public func CFNotificationCenterGetDarwinNotifyCenter() -> CFNotificationCenter! {
    CFNotificationCenter.darwin
}

/// Posts `name`; `object`, `userInfo` and `deliverImmediately` are ignored by the Darwin center, as Apple's
/// documentation says. Stands in for Core Foundation's function.
public func CFNotificationCenterPostNotification(_ center: CFNotificationCenter!, _ name: CFNotificationName!, _ object: UnsafeRawPointer!,
                                                 _ userInfo: CFDictionary!, _ deliverImmediately: Bool) {
    guard let center, let name else { return }
    center.post(name.rawValue as String)
}

/// Calls `callBack` for each post of `name` (of every name when `name` is nil). Stands in for Core
/// Foundation's function.
public func CFNotificationCenterAddObserver(_ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!, _ callBack: CFNotificationCallback!,
                                            _ name: CFString!, _ object: UnsafeRawPointer!,
                                            _ suspensionBehavior: CFNotificationSuspensionBehavior) {
    guard let center, let callBack else { return }
    center.add(observer, callBack, name.map { $0 as String })
}

/// Stops calling `observer` for `name`. Stands in for Core Foundation's function.
public func CFNotificationCenterRemoveObserver(_ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!, _ name: CFNotificationName!,
                                               _ object: UnsafeRawPointer!) {
    center?.remove(observer, name: name.map { $0.rawValue as String })
}

/// Stops calling `observer` for any name. Stands in for Core Foundation's function.
public func CFNotificationCenterRemoveEveryObserver(_ center: CFNotificationCenter!, _ observer: UnsafeRawPointer!) {
    center?.remove(observer, name: nil)
}
#endif
