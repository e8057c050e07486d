// The two ways share extensions are commonly written to receive a file, for compare-receive.sh to set
// beside `sharing receive`: a stream copied through a 1 KB buffer, and the whole file read into `Data`.
// Both end with the copy flushed to disk, as a durable receive must.
//   ReceiveNaive stream SOURCE DESTINATION
//   ReceiveNaive data SOURCE DESTINATION
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, ["stream", "data"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: ReceiveNaive stream|data SOURCE DESTINATION\n".utf8))
    exit(2)
}
let source = URL(fileURLWithPath: arguments[2]), destination = URL(fileURLWithPath: arguments[3])

if arguments[1] == "data" {
    let data = try Data(contentsOf: source)
    try data.write(to: destination)
} else {
    guard let input = InputStream(url: source), let output = OutputStream(url: destination, append: false) else { exit(1) }
    input.open()
    output.open()
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
        let count = input.read(&buffer, maxLength: buffer.count)
        if count <= 0 { break }
        var written = 0
        while written < count {
            let result = buffer[written...].withUnsafeBufferPointer { output.write($0.baseAddress!, maxLength: count - written) }
            if result <= 0 { exit(1) }
            written += result
        }
    }
    input.close()
    output.close()
}
let handle = try FileHandle(forWritingTo: destination)
try handle.synchronize()
try handle.close()
