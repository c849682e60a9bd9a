// libFuzzer target (built and run by .ci/fuzz): ToolFuzzing.debugReport, the `actuate` CLI's reader of debug
// reports, over arbitrary bytes.
import ActuateCLIFuzzEntryPoints
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDebugReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    ToolFuzzing.debugReport(Data(bytes: data, count: size))
    return 0
}
