/// The core names a test writes beside the test kit's own, so that `import ActuateTesting` is enough to name them:
/// `ActuateScheduler` is the type of every `scheduler:` parameter a ``TestScheduler`` is passed to.
@_exported import protocol ActuateCore.ActuateScheduler
