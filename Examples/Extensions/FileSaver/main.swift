// A share extension for any files, of any size (up to 10): each streams into the app group's inbox.
import ExtensionRuntime

ExtensionProcess.run(FileSaver.init)
