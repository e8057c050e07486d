// A share extension for images (up to 10): each goes into the app group's inbox, with a 300-pixel preview.
import ExtensionRuntime

ExtensionProcess.run(ImageSaver.init)
