import Benchmark
import SharingShim

/// Per-call cost of the type system's hot paths, with allocation counts (expected: none for conformance).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        scalingFactor: .mega,
        maxDuration: .seconds(2)
    )
    let types: [UTType] = [.jpeg, .heic, .pdf, .plainText, .shellScript, .mpeg4Movie, .zip, .json]
    let supertypes: [UTType] = [.image, .data, .text, .content, .movie, .archive]

    Benchmark("conforms(to:) between system types") { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(types[i & 7].conforms(to: supertypes[i % 6]))
            i &+= 1
        }
    }

    let lua = UTType(filenameExtension: "lua")!
    Benchmark("conforms(to:) from a dynamic type") { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(lua.conforms(to: supertypes[i % 6]))
            i &+= 1
        }
    }

    let extensions = ["jpg", "png", "pdf", "heic", "txt", "mp4", "zip", "json"]
    Benchmark("init(filenameExtension:) for declared extensions") { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(UTType(filenameExtension: extensions[i & 7]))
            i &+= 1
        }
    }

    Benchmark("init(filenameExtension:) for an unknown extension (dynamic)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(UTType(filenameExtension: "xyzzy")) }
    }

    let mimeTypes = ["image/jpeg", "image/png", "application/pdf", "image/heic", "text/plain", "video/mp4", "application/zip", "application/json"]
    Benchmark("init(mimeType:)") { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(UTType(mimeType: mimeTypes[i & 7]))
            i &+= 1
        }
    }

    let identifiers = ["public.jpeg", "public.png", "com.adobe.pdf", "public.heic", "public.plain-text", "public.mpeg-4", "public.zip-archive", "public.json"]
    Benchmark("init(_:) by identifier") { benchmark in
        var i = 0
        for _ in benchmark.scaledIterations {
            blackHole(UTType(identifiers[i & 7]))
            i &+= 1
        }
    }
}
