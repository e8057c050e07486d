// One import for extension code: Apple's frameworks where they exist, OpenSharing's elsewhere. A file that says
// `import SharingShim` in place of `import UIKit`, `import Social`, `import MobileCoreServices`,
// `import UniformTypeIdentifiers`, `import ImageIO`, `import UserNotifications`, `import CoreTransferable` and
// `import os` compiles unchanged against either.

#if canImport(Darwin)
@_exported public import Foundation
@_exported public import UniformTypeIdentifiers
// The kUTType… constants and UTType… functions of code from before iOS 14.
#if canImport(MobileCoreServices)
@_exported public import MobileCoreServices
#elseif canImport(CoreServices)
@_exported public import CoreServices
#endif
#if canImport(ImageIO)
@_exported public import ImageIO
#endif
#if canImport(UIKit)
@_exported public import UIKit
#endif
#if canImport(Social)
@_exported public import Social
#endif
#if canImport(UserNotifications)
@_exported public import UserNotifications
#endif
#if canImport(os)
@_exported public import os
#endif
#if canImport(Intents)
@_exported public import Intents
#endif
#if canImport(Combine)
@_exported public import Combine
#endif
#if canImport(CoreTransferable)
@_exported public import CoreTransferable
#endif
#else
@_exported public import Foundation
@_exported public import OpenCoreFoundation
@_exported public import OpenUniformTypeIdentifiers
@_exported public import OpenItemProvider
@_exported public import OpenImageIO
@_exported public import OpenExtensionUI
@_exported public import OpenUserNotifications
@_exported public import OpenOSLog
@_exported public import OpenIntents
// Combine: OpenCombine's publishers and subscribers, DispatchQueue as a scheduler, and Foundation's timer and
// notification publishers (FoundationPublishers).
@_exported public import OpenCombine
@_exported public import OpenCombineDispatch
@_exported public import FoundationPublishers
@_exported public import OpenTransferable
// Not FoundationNetworking (URLSession on Linux): linking it loads libcurl and its libraries, whose relocated
// pages cost every extension 1.2 MB of footprint it does not spend on a device. Code that uses URLSession adds
// `#if canImport(FoundationNetworking) import FoundationNetworking #endif` (docs/your-extension.md).
// Linux's toolchain has a module named CoreFoundation whose types have these names too: a file that imports it
// beside this one still means these, because a declaration imported by name is preferred to one a module brings
// whole.
@_exported public import typealias OpenCoreFoundation.CFString
@_exported public import typealias OpenCoreFoundation.CFArray
@_exported public import typealias OpenCoreFoundation.CFDictionary
@_exported public import typealias OpenCoreFoundation.CFMutableDictionary
@_exported public import typealias OpenCoreFoundation.CFData
@_exported public import typealias OpenCoreFoundation.CFMutableData
@_exported public import typealias OpenCoreFoundation.CFURL
@_exported public import typealias OpenCoreFoundation.CFNumber
@_exported public import typealias OpenCoreFoundation.CFBoolean
@_exported public import typealias OpenCoreFoundation.CFIndex
@_exported public import typealias OpenCoreFoundation.CFTypeRef
@_exported public import class OpenCoreFoundation.CFAllocator
@_exported public import enum OpenCoreFoundation.CFNumberType
@_exported public import var OpenCoreFoundation.kCFBooleanTrue
@_exported public import var OpenCoreFoundation.kCFBooleanFalse
@_exported public import var OpenCoreFoundation.kCFAllocatorDefault
@_exported public import func OpenCoreFoundation.CFNumberGetValue
@_exported public import func OpenCoreFoundation.CFDataCreateMutable
@_exported public import class OpenCoreFoundation.CFNotificationCenter
@_exported public import struct OpenCoreFoundation.CFNotificationName
@_exported public import typealias OpenCoreFoundation.CFNotificationCallback
@_exported public import enum OpenCoreFoundation.CFNotificationSuspensionBehavior
@_exported public import func OpenCoreFoundation.CFNotificationCenterGetDarwinNotifyCenter
@_exported public import func OpenCoreFoundation.CFNotificationCenterPostNotification
@_exported public import func OpenCoreFoundation.CFNotificationCenterAddObserver
@_exported public import func OpenCoreFoundation.CFNotificationCenterRemoveObserver
@_exported public import func OpenCoreFoundation.CFNotificationCenterRemoveEveryObserver
#endif

#if canImport(Darwin)
/// Apple's `Progress` takes its own locks; OpenSharing's stand-in on other systems is a subclass that does.
package typealias SynchronizedProgress = Progress
#endif
