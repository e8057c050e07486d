// The extension's program, which only the Linux package compiles (the Xcode target leaves this file out).
#if canImport(ExtensionRuntime)
import ExtensionRuntime
import SharingShim

ExtensionProcess.run(ShareViewController.init)
#endif
