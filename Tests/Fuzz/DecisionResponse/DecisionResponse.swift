// libFuzzer target (built and run by .ci/fuzz): PersonalizationFuzzing.decisionResponse over arbitrary bytes.
import ActuateFuzzEntryPoints
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecisionResponse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    PersonalizationFuzzing.decisionResponse(Data(bytes: data, count: size))
    return 0
}
