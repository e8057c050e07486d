// `import MobileCoreServices` as extension sources write it: Apple's type API is SharingShim's here. The compatibility suite only.
@_exported import SharingShim
