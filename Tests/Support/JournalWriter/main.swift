// A helper process for the crash tests: appends events to a FileEventStore until it is killed.
print("journal-writer: under construction")
