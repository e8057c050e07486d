// `import Social` as share extensions write it: the compose sheet is in the UIKit stand-in. The compatibility
// suite only.
@_exported import UIKit
