import Foundation
import PackageSupport

/// How much a notification may interrupt the person. Stands in for `UNNotificationInterruptionLevel`, with
/// Apple's raw values.
public enum UNNotificationInterruptionLevel: UInt, Sendable {
    case passive = 0
    case active = 1
    case timeSensitive = 2
    case critical = 3
}
