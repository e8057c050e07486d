#if os(Linux)
public import Foundation
public import FoundationNetworking

/// The configuration `URLSessionConfiguration.background(withIdentifier:)` makes (the `BackgroundTransfers`
/// module): its identifier and shared container, which Foundation on Linux keeps but never lets code set, and
/// `HandedOffUpload` first among its protocols, so that its uploads from a file go to the host, which carries
/// them as iOS carries an extension's background transfers. A session copies the configuration, these values
/// with it.
package final class BackgroundSessionConfiguration: URLSessionConfiguration, @unchecked Sendable {
    private let lock = NSLock()
    private var background: String?
    private var shared: String?
    private var launchEvents = true

    package init(identifier: String) {
        super.init()
        background = identifier
        protocolClasses = [HandedOffUpload.self] + (protocolClasses ?? [])
    }

    /// A copy that stays a background configuration, as the copy a session keeps (Foundation's own copy would be
    /// a plain configuration, its shared container lost): every setting a configuration's code can set, copied.
    package override func copy(with zone: NSZone? = nil) -> Any {
        let copy = BackgroundSessionConfiguration(identifier: identifier ?? "")
        copy.sharedContainerIdentifier = sharedContainerIdentifier
        copy.sendsLaunchEvents = sendsLaunchEvents
        copy.requestCachePolicy = requestCachePolicy
        copy.timeoutIntervalForRequest = timeoutIntervalForRequest
        copy.timeoutIntervalForResource = timeoutIntervalForResource
        copy.networkServiceType = networkServiceType
        copy.allowsCellularAccess = allowsCellularAccess
        copy.isDiscretionary = isDiscretionary
        copy.connectionProxyDictionary = connectionProxyDictionary
        copy.httpShouldUsePipelining = httpShouldUsePipelining
        copy.httpShouldSetCookies = httpShouldSetCookies
        copy.httpCookieAcceptPolicy = httpCookieAcceptPolicy
        copy.httpAdditionalHeaders = httpAdditionalHeaders
        copy.httpMaximumConnectionsPerHost = httpMaximumConnectionsPerHost
        copy.httpCookieStorage = httpCookieStorage
        copy.urlCredentialStorage = urlCredentialStorage
        copy.urlCache = urlCache
        copy.protocolClasses = protocolClasses
        return copy
    }

    package override var identifier: String? {
        get { lock.withLock { background } }
        set { lock.withLock { background = newValue } }
    }

    package override var sharedContainerIdentifier: String? {
        get { lock.withLock { shared } }
        set { lock.withLock { shared = newValue } }
    }

    /// Whether the app is to be launched when the session's transfers end (iOS; Foundation on Linux has no such
    /// property): kept, and nothing more, as no app runs here.
    package var sendsLaunchEvents: Bool {
        get { lock.withLock { launchEvents } }
        set { lock.withLock { launchEvents = newValue } }
    }
}
#endif
