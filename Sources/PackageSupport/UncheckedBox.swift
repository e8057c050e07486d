/// A value Swift cannot prove sendable — a Foundation object, an options dictionary, a legacy completion handler
/// Apple does not mark `@Sendable` — carried to the one thread that uses it next. The one place the project
/// says so: each use hands its value to a single consumer, never to two at once.
package struct UncheckedBox<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
