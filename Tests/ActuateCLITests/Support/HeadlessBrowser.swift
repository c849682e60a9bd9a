import Foundation

/// Debian's `chromium`, run headless to load a page, dump its DOM after the scripts ran, or take a screenshot.
struct HeadlessBrowser {
    let executable: URL

    /// The browser on `PATH`, or nil when none is installed.
    static let installed: HeadlessBrowser? =
        ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(ChildProcess.onPath).first.map {
            HeadlessBrowser(executable: $0)
        }

    /// Whether `ACTUATE_REQUIRE_BROWSER=1` asks for browser tests to fail rather than skip without a browser.
    static let isRequired = ProcessInfo.processInfo.environment["ACTUATE_REQUIRE_BROWSER"] == "1"

    /// The window size pages are loaded in unless a call says otherwise.
    static let defaultWindow = (width: 1280, height: 900)

    /// Loads `page` and returns the DOM once its scripts have run, and what the browser logged.
    func dumpDOM(
        of page: URL,
        profile: URL,
        window: (width: Int, height: Int) = defaultWindow,
        virtualTimeBudget: Int? = nil
    ) async throws -> (dom: String, log: String) {
        // With a budget (milliseconds), the browser runs timers and animation frames until it is spent.
        let budget = virtualTimeBudget.map { ["--virtual-time-budget=\($0)"] } ?? []
        let result = try await ChildProcess.run(
            executable,
            arguments(profile: profile, window: window) + budget + ["--dump-dom", page.absoluteString]
        )
        return (result.outputText, result.error)
    }

    /// Loads `page` and writes a PNG screenshot of the window to `screenshot`.
    func screenshot(
        of page: URL,
        to screenshot: URL,
        profile: URL,
        window: (width: Int, height: Int) = defaultWindow
    ) async throws -> String {
        let result = try await ChildProcess.run(
            executable,
            arguments(profile: profile, window: window) + ["--screenshot=\(screenshot.path)", page.absoluteString]
        )
        return result.error
    }

    private func arguments(profile: URL, window: (width: Int, height: Int)) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-extensions", "--force-device-scale-factor=1", "--window-size=\(window.width),\(window.height)",
            "--enable-logging=stderr", "--v=0", "--user-data-dir=\(profile.path)",
        ]
    }
}

/// Counts pixels of given colours in a rectangle of a PNG, through `Tests/Support/png_pixels.py`.
enum PNGPixels {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Support/png_pixels.py")

    /// The number of pixels of each colour (`RRGGBB`) inside `rect` (x, y, width, height).
    static func count(in image: URL, rect: [Int], colours: [String]) async throws -> [String: Int] {
        guard let python = ChildProcess.onPath("python3") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "python3 on PATH"])
        }
        let result = try await ChildProcess.run(python, [script.path, image.path] + rect.map(String.init) + colours)
        guard result.status == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: image.path, "stderr": result.error])
        }
        struct Output: Decodable { var counts: [String: Int] }
        return try JSONDecoder().decode(Output.self, from: result.output).counts
    }

    /// The number of pixels of each colour (`RRGGBB`) inside each of `rects` (x, y, width, height), decoding the
    /// image once.
    static func count(in image: URL, rects: [[Int]], colours: [String]) async throws -> [[String: Int]] {
        guard let python = ChildProcess.onPath("python3") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "python3 on PATH"])
        }
        let boxes = rects.map { $0.map(String.init).joined(separator: ",") }.joined(separator: ";")
        let result = try await ChildProcess.run(python, [script.path, image.path, "--rects", boxes] + colours)
        guard result.status == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: image.path, "stderr": result.error])
        }
        struct Output: Decodable { var rects: [[String: Int]] }
        return try JSONDecoder().decode(Output.self, from: result.output).rects
    }
}
