// The `Actuate` product's module: the core and the built-in plugins under one import, as swift-nio's `NIO`
// module re-exports `NIOCore` and `NIOPosix`. It declares nothing of its own.
@_exported import ActuateCore
@_exported import ActuatePlugins
