// One import for code that shares content: Apple's frameworks where they exist, OpenSharing's elsewhere.
// Code written against Apple's API compiles unchanged against either.

#if canImport(Darwin)
@_exported public import Foundation
@_exported public import UniformTypeIdentifiers
// The kUTType… constants and UTType… functions of code from before iOS 14.
#if canImport(MobileCoreServices)
@_exported public import MobileCoreServices
#elseif canImport(CoreServices)
@_exported public import CoreServices
#endif
#else
@_exported public import Foundation
@_exported public import OpenUniformTypeIdentifiers
@_exported public import OpenItemProvider
#endif

#if canImport(Darwin)
/// Apple's `Progress` takes its own locks; OpenSharing's stand-in on other systems is a subclass that does.
package typealias SynchronizedProgress = Progress
#endif
