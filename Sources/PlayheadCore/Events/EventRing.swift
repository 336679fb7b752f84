/// A bounded first-in first-out store: appending past capacity drops the oldest element.
/// Storage never grows beyond `capacity`, so long sessions keep flat memory.
struct EventRing<Element: Sendable>: Sendable {
    /// The most elements kept (at least 1).
    let capacity: Int
    private var storage: [Element] = []
    private var head = 0
    /// How many elements were dropped to make room.
    private(set) var droppedCount = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage.reserveCapacity(min(self.capacity, 1024))
    }

    var count: Int { storage.count }

    mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[head] = element
            head = (head + 1) % capacity
            droppedCount += 1
        }
    }

    /// The elements, oldest first.
    var elements: [Element] { Array(storage[head...] + storage[..<head]) }

    /// The newest element.
    var last: Element? { storage.isEmpty ? nil : storage[(head + storage.count - 1) % storage.count] }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}
