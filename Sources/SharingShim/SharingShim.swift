// One import for extension code: Apple's frameworks where they exist, OpenSharing's elsewhere. A file that says
// `import SharingShim` in place of `import UIKit`, `import Social`, `import MobileCoreServices` and
// `import UniformTypeIdentifiers` compiles unchanged against either.

#if canImport(Darwin)
@_exported public import Foundation
@_exported public import UniformTypeIdentifiers
// The kUTType… constants and UTType… functions of code from before iOS 14.
#if canImport(MobileCoreServices)
@_exported public import MobileCoreServices
#elseif canImport(CoreServices)
@_exported public import CoreServices
#endif
#if canImport(UIKit)
@_exported public import UIKit
#endif
#if canImport(Social)
@_exported public import Social
#endif
#else
@_exported public import Foundation
@_exported public import OpenUniformTypeIdentifiers
@_exported public import OpenItemProvider
@_exported public import OpenExtensionUI
#endif

#if canImport(Darwin)
/// Apple's `Progress` takes its own locks; OpenSharing's stand-in on other systems is a subclass that does.
package typealias SynchronizedProgress = Progress
#endif
