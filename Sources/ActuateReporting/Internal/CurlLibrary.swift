#if canImport(FoundationNetworking) && canImport(Glibc)
import Foundation
import Glibc

/// The few libcurl functions ``CurlTransfer`` calls, loaded at run time from the library that FoundationNetworking
/// itself links (`libcurl.so.4`): the package links nothing new and needs no curl headers to build.
///
/// `curl_easy_setopt` and `curl_easy_getinfo` are variadic in C. They are called here through non-variadic
/// prototypes of one integer or pointer argument, which pass that argument exactly as a variadic call does on the
/// Linux calling conventions Swift supports (x86-64 System V and AArch64 AAPCS64: the same registers, in order).
/// This file is Linux-only: Apple's arm64 passes variadic arguments on the stack, and Apple platforms use
/// `URLSession` directly.
struct CurlLibrary: @unchecked Sendable {
    // @unchecked: every stored property is a C function pointer, immutable once loaded.
    typealias Handle = OpaquePointer
    /// `size_t (*)(char *, size_t, size_t, void *)`: the write and header callbacks.
    typealias DataCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    /// `int (*)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)`: the transfer-progress callback.
    typealias ProgressCallback = @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64) -> Int32

    let easyInit: @convention(c) () -> Handle?
    let easyCleanup: @convention(c) (Handle?) -> Void
    let easyReset: @convention(c) (Handle?) -> Void
    let setLong: @convention(c) (Handle?, Int32, Int) -> Int32
    let setPointer: @convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Int32
    let setDataCallback: @convention(c) (Handle?, Int32, DataCallback) -> Int32
    let setProgressCallback: @convention(c) (Handle?, Int32, ProgressCallback) -> Int32
    let getLong: @convention(c) (Handle?, Int32, UnsafeMutablePointer<Int>) -> Int32
    let listAppend: @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?
    let listFreeAll: @convention(c) (OpaquePointer?) -> Void
    let multiInit: @convention(c) () -> Handle?
    let multiCleanup: @convention(c) (Handle?) -> Int32
    let multiAdd: @convention(c) (Handle?, Handle?) -> Int32
    let multiRemove: @convention(c) (Handle?, Handle?) -> Int32
    let multiPerform: @convention(c) (Handle?, UnsafeMutablePointer<Int32>) -> Int32
    /// `curl_multi_wait(multi, NULL, 0, timeout_ms, &numfds)`.
    let multiWait:
        @convention(c) (Handle?, UnsafeMutableRawPointer?, UInt32, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    /// `curl_multi_info_read`: a `CURLMsg` (its `msg` at offset 0, its `data.result` at offset 16 on 64-bit).
    let multiInfoRead: @convention(c) (Handle?, UnsafeMutablePointer<Int32>) -> UnsafeMutableRawPointer?

    /// The library, or nil when it cannot be loaded (then FoundationNetworking could not have loaded either).
    static let shared: CurlLibrary? = load()

    private static func load() -> CurlLibrary? {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        typealias GlobalInit = @convention(c) (Int) -> Int32
        guard let globalInit = symbol("curl_global_init", as: GlobalInit.self),
            let easyInit = symbol("curl_easy_init", as: (@convention(c) () -> Handle?).self),
            let easyCleanup = symbol("curl_easy_cleanup", as: (@convention(c) (Handle?) -> Void).self),
            let easyReset = symbol("curl_easy_reset", as: (@convention(c) (Handle?) -> Void).self),
            let setLong = symbol("curl_easy_setopt", as: (@convention(c) (Handle?, Int32, Int) -> Int32).self),
            let setPointer = symbol(
                "curl_easy_setopt",
                as: (@convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Int32).self
            ),
            let setDataCallback = symbol(
                "curl_easy_setopt",
                as: (@convention(c) (Handle?, Int32, DataCallback) -> Int32).self
            ),
            let setProgressCallback = symbol(
                "curl_easy_setopt",
                as: (@convention(c) (Handle?, Int32, ProgressCallback) -> Int32).self
            ),
            let getLong = symbol(
                "curl_easy_getinfo",
                as: (@convention(c) (Handle?, Int32, UnsafeMutablePointer<Int>) -> Int32).self
            ),
            let listAppend = symbol(
                "curl_slist_append",
                as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?).self
            ),
            let listFreeAll = symbol("curl_slist_free_all", as: (@convention(c) (OpaquePointer?) -> Void).self),
            let multiInit = symbol("curl_multi_init", as: (@convention(c) () -> Handle?).self),
            let multiCleanup = symbol("curl_multi_cleanup", as: (@convention(c) (Handle?) -> Int32).self),
            let multiAdd = symbol("curl_multi_add_handle", as: (@convention(c) (Handle?, Handle?) -> Int32).self),
            let multiRemove = symbol(
                "curl_multi_remove_handle",
                as: (@convention(c) (Handle?, Handle?) -> Int32).self
            ),
            let multiPerform = symbol(
                "curl_multi_perform",
                as: (@convention(c) (Handle?, UnsafeMutablePointer<Int32>) -> Int32).self
            ),
            let multiWait = symbol(
                "curl_multi_wait",
                as: (@convention(c) (Handle?, UnsafeMutableRawPointer?, UInt32, Int32, UnsafeMutablePointer<Int32>?)
                    -> Int32).self
            ),
            let multiInfoRead = symbol(
                "curl_multi_info_read",
                as: (@convention(c) (Handle?, UnsafeMutablePointer<Int32>) -> UnsafeMutableRawPointer?).self
            )
        else { return nil }
        // CURL_GLOBAL_ALL; reference-counted, and FoundationNetworking has usually called it already.
        guard globalInit(3) == 0 else { return nil }
        return CurlLibrary(
            easyInit: easyInit,
            easyCleanup: easyCleanup,
            easyReset: easyReset,
            setLong: setLong,
            setPointer: setPointer,
            setDataCallback: setDataCallback,
            setProgressCallback: setProgressCallback,
            getLong: getLong,
            listAppend: listAppend,
            listFreeAll: listFreeAll,
            multiInit: multiInit,
            multiCleanup: multiCleanup,
            multiAdd: multiAdd,
            multiRemove: multiRemove,
            multiPerform: multiPerform,
            multiWait: multiWait,
            multiInfoRead: multiInfoRead
        )
    }
}

/// The libcurl option, information and result numbers ``CurlTransfer`` uses (`curl.h`; stable across libcurl 7
/// and 8).
enum CurlNumber {
    static let writeData: Int32 = 10_001
    static let url: Int32 = 10_002
    static let writeFunction: Int32 = 20_011
    static let postFields: Int32 = 10_015
    static let httpHeader: Int32 = 10_023
    static let headerData: Int32 = 10_029
    static let customRequest: Int32 = 10_036
    static let noProgress: Int32 = 43
    static let noBody: Int32 = 44
    static let post: Int32 = 47
    static let followLocation: Int32 = 52
    static let xferInfoData: Int32 = 10_057
    static let headerFunction: Int32 = 20_079
    static let httpGet: Int32 = 80
    static let noSignal: Int32 = 99
    static let connectTimeoutMilliseconds: Int32 = 156
    static let httpContentDecoding: Int32 = 158
    static let protocols: Int32 = 181
    static let redirectProtocols: Int32 = 182
    static let xferInfoFunction: Int32 = 20_219
    static let postFieldSizeLarge: Int32 = 30_120
    static let copyPostFields: Int32 = 10_165

    static let responseCodeInfo: Int32 = 0x20_0002
    static let httpAndHTTPS = 1 | 2
}
#endif
