// libFuzzer target: route patterns and URLs (built and run by .ci/fuzz).
import ActuateFuzzEntryPoints

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteMatching(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    RouteFuzzing.compileAndMatch(text)
    return 0
}
