// libFuzzer target (built and run by .ci/fuzz): ReportingFuzzing.journalRecord over arbitrary bytes.
import ActuateFuzzEntryPoints
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    ReportingFuzzing.journalRecord(Data(bytes: data, count: size))
    return 0
}
