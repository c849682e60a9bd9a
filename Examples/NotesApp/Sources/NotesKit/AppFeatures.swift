import Actuate

/// Creating, deleting, opening and syncing notes.
public final class NotesFeature: Feature, URLMapped {
    public static let create = action(CreateNoteAction.self)
    public static let delete = action(DeleteNoteAction.self)
    public static let open = action(OpenNoteAction.self)
    public static let sync = action(SyncNotesAction.self)

    public static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(create)
        actions.publish(delete)
        actions.publish(open)
        actions.declare(sync)
    }

    public static func urlMappings(routes: URLMappingsBuilder<NotesFeature>) {
        routes.send("note/$(id)", to: open)  // notes://note/3
    }
}

/// The app's features: what `ActuateSystem.setup(group:)` installs.
public final class AppFeatures: FeatureGroup {
    public static var subfeatures: [any FeatureDefinition.Type] { [NotesFeature.self] }
}
