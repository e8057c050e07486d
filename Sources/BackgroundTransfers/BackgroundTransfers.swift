// Background sessions for extension code on Linux, where Foundation has them not: import this module where
// the code imports FoundationNetworking, and `URLSessionConfiguration.background(withIdentifier:)` with its
// `sharedContainerIdentifier` compiles as on iOS and behaves as the system's does for an extension — each upload
// from a file is handed to the host, which carries it to its end after the extension's process has gone
// (docs/runtime.md, "Background transfers").
#if os(Linux)
@_exported public import FoundationNetworking
import BackgroundSessions

extension URLSessionConfiguration {
    /// A configuration whose sessions' uploads from a file the host carries to their end, whatever becomes of the
    /// extension's process; Apple's `background(withIdentifier:)`.
    public class func background(withIdentifier identifier: String) -> URLSessionConfiguration {
        BackgroundSessionConfiguration(identifier: identifier)
    }

    /// The app group container a background session's files are shared through, which iOS requires of an
    /// extension's background session. Set here; read through Foundation's own property, which a background
    /// configuration answers (on another configuration the value set is not kept, and Foundation's says `nil`).
    @_disfavoredOverload
    public var sharedContainerIdentifier: String? {
        get { (self as? BackgroundSessionConfiguration)?.sharedContainerIdentifier }
        set { (self as? BackgroundSessionConfiguration)?.sharedContainerIdentifier = newValue }
    }

    /// Whether the app is launched when a background session's transfers end (iOS only): kept on a background
    /// configuration; no app runs here to be launched.
    public var sessionSendsLaunchEvents: Bool {
        get { (self as? BackgroundSessionConfiguration)?.sendsLaunchEvents ?? true }
        set { (self as? BackgroundSessionConfiguration)?.sendsLaunchEvents = newValue }
    }
}
#endif
