// libFuzzer target (built and run by .ci/fuzz): PersonalizationFuzzing.content over arbitrary bytes.
import ActuateFuzzEntryPoints
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    PersonalizationFuzzing.content(Data(bytes: data, count: size))
    return 0
}
